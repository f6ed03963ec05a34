import { IncomingHttpHeaders } from 'node:http';
import { Clock } from './clock';
import { Faults } from './faults';
import { RateLimitConfig, RateLimiter } from './rateLimit';
import { Store } from './store';
import { stopDeliveries } from './webhooks';

export interface LoggedRequest {
	method: string;
	path: string;
	/** The raw query string, without `?`. */
	query: string;
	headers: IncomingHttpHeaders;
	body: unknown;
	/** null until answered, and for a dropped request. */
	status: number | null;
	/** When the request arrived (ms since the epoch, real time): spacing and throughput are read from it. */
	receivedAt: number;
}

/** Everything one running sandbox holds. */
export interface SandboxState {
	url: string;
	clock: Clock;
	store: Store;
	limiter: RateLimiter;
	faults: Faults;
	requests: LoggedRequest[];
}

export function createState(rateLimit: RateLimitConfig): SandboxState {
	const clock = new Clock();
	return { url: '', clock, store: new Store(clock), limiter: new RateLimiter(rateLimit), faults: new Faults(), requests: [] };
}

/** Back to as started: empty store, real time, full buckets, no faults, empty log. The rate-limit numbers stay. */
export function resetState(state: SandboxState): void {
	stopDeliveries(state.store);
	state.clock = new Clock();
	state.store = new Store(state.clock);
	state.limiter.reset();
	state.faults.clear();
	state.requests = [];
}
