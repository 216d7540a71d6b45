// The one error model (DESIGN.md "Errors"): every failure a caller can cause is an AppError with
// a stable code and the HTTP status it maps to. Doors translate it; nothing else builds error bodies.
import type { z } from 'zod';

export type FieldProblem = { field: string; message: string };

export class AppError extends Error {
  /** HTTP headers the REST door sends with this error (Retry-After and RateLimit-* of a budget). */
  headers: Record<string, string> = {};

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }

  withHeaders(headers: Record<string, string>): this {
    Object.assign(this.headers, headers);
    return this;
  }

  /** The `error` object of DESIGN.md's REST error body (without request_id, which the door adds). */
  toBody(): { code: string; message: string; field?: string; details?: unknown } {
    return {
      code: this.code,
      message: this.message,
      ...(this.field !== undefined ? { field: this.field } : {}),
      ...(this.details !== undefined ? { details: this.details } : {}),
    };
  }
}

export const badRequest = (code: string, message: string, field?: string, details?: unknown) =>
  new AppError(400, code, message, field, details);
export const notFound = (message: string, field?: string) => new AppError(404, 'not_found', message, field);
export const conflict = (code: string, message: string, field?: string) => new AppError(409, code, message, field);

/** Lists every failing field of a zod error, so a caller can fix all of them in one go. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.map(String).join('.') : '(root)',
    message: issue.message,
  }));
}

export function invalidInput(error: z.ZodError): AppError {
  const problems = fieldProblems(error);
  const summary = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
  return new AppError(400, 'invalid_input', `invalid input: ${summary}`, problems[0]?.field, problems);
}
