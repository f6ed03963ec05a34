/** Real time plus an offset that the control API moves forward: every timestamp and expiry reads it. */
export class Clock {
	private offsetMs = 0;

	now(): number {
		return Date.now() + this.offsetMs;
	}

	/** A moment (milliseconds, now by default) in ISO form. Read now() once when several timestamps must agree. */
	iso(at = this.now()): string {
		return new Date(at).toISOString();
	}

	advance(seconds: number): void {
		this.offsetMs += seconds * 1000;
	}

	/** Jumps to a moment (past or future); time runs on from there. */
	set(iso: string): void {
		this.offsetMs = Date.parse(iso) - Date.now();
	}
}
