// The A2A SDK's TaskStore on the a2a_tasks table: the SDK's request handler saves and loads tasks
// through it, so tasks/get answers on every instance sharing the database and after a restart.
// Tasks are not scoped by caller (the door has no accounts): a task id is an unguessable UUID that
// only its sender learns, and tasks are listed only within a context id, which is just as secret.
import { Task, taskStateToJSON, type ListTasksRequest, type ListTasksResponse } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { Executor } from '../platform/db/executor.ts';
import { iso, type Clock } from '../platform/clock.ts';
import { listTaskRows, loadTaskRow, saveTaskRow } from './store.ts';

const DEFAULT_PAGE = 50;
const MAX_PAGE = 100;

export class DbTaskStore implements TaskStore {
  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
    /** Told of a failure of the database, with the call's context (the door answers 503 for it). */
    private readonly onFailure: (context: ServerCallContext | undefined, err: unknown) => void = () => {},
  ) {}

  async save(task: Task, context?: ServerCallContext): Promise<void> {
    const state = taskStateToJSON(task.status?.state ?? 0);
    await this.watched(context, () => saveTaskRow(this.db, { id: task.id, contextId: task.contextId, state, task: JSON.stringify(Task.toJSON(task)) }, iso(this.clock.now())));
  }

  async load(taskId: string, context?: ServerCallContext): Promise<Task | undefined> {
    const row = await this.watched(context, () => loadTaskRow(this.db, taskId));
    return row ? Task.fromJSON(JSON.parse(row.task)) : undefined;
  }

  private async watched<T>(context: ServerCallContext | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      this.onFailure(context, err);
      throw err;
    }
  }

  /** Tasks of one context (none without a context id), paged by an offset token. */
  async list(params: ListTasksRequest, context?: ServerCallContext): Promise<ListTasksResponse> {
    const pageSize = Math.min(MAX_PAGE, Math.max(1, params.pageSize ?? DEFAULT_PAGE));
    if (!params.contextId) return { tasks: [], nextPageToken: '', pageSize, totalSize: 0 };
    const offset = /^\d{1,9}$/.test(params.pageToken ?? '') ? Number(params.pageToken) : 0;
    const state = params.status ? taskStateToJSON(params.status) : undefined;
    const { rows, total } = await this.watched(context, () => listTaskRows(this.db, { contextId: params.contextId!, state, offset, limit: pageSize }));
    const next = offset + rows.length < total ? String(offset + rows.length) : '';
    return { tasks: rows.map((r) => Task.fromJSON(JSON.parse(r.task))), nextPageToken: next, pageSize, totalSize: total };
  }
}
