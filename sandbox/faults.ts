import { randomUUID } from 'node:crypto';

export interface Fault {
	id: string;
	method: string | null;
	/** An exact path, or a prefix ending in `*`. */
	path: string;
	status: number | null;
	body: unknown;
	retryAfter: string | null;
	/** Extra response headers (a redirect's Location; a Content-Type other than JSON sends a text body as it is). */
	headers: Record<string, string>;
	delayMs: number;
	drop: boolean;
	times: number;
	/** Matching requests let through before the fault applies (the second page of a list: 1). */
	after: number;
}

export type NewFault = Partial<Omit<Fault, 'id' | 'path'>> & { path: string };

/** Injected failures, matched in the order they were added; each is used `times` times. */
export class Faults {
	private list: Fault[] = [];

	add(input: NewFault): Fault {
		const fault: Fault = {
			id: randomUUID(),
			method: input.method?.toUpperCase() ?? null,
			path: input.path,
			status: input.status ?? null,
			body: input.body ?? null,
			retryAfter: input.retryAfter ?? null,
			headers: input.headers ?? {},
			delayMs: input.delayMs ?? 0,
			drop: input.drop ?? false,
			times: input.times ?? 1,
			after: input.after ?? 0,
		};
		this.list.push(fault);
		return fault;
	}

	clear(): void {
		this.list = [];
	}

	/** The first fault for this request, counting one use of it. */
	take(method: string, path: string): Fault | undefined {
		const fault = this.list.find((candidate) => (candidate.method ?? method) === method && matches(candidate.path, path));
		if (fault && fault.after > 0) {
			fault.after--;
			return undefined;
		}
		if (fault && --fault.times === 0) this.list = this.list.filter((other) => other !== fault);
		return fault;
	}
}

function matches(pattern: string, path: string): boolean {
	return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
}
