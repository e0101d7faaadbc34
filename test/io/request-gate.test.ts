/**
 * Redraws wait for a submitted prompt's request: they run two check-phase hops after the request
 * is handed to the client, however many trips round the event loop the way there takes (the
 * prompt's save), and the cap lets them run when no request goes out at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { afterRequestLeaves, holdForRequest, REDRAW_CAP_MS, requestDispatched, requestPending } from '../../src/io/request-gate.js';

const hop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const hops = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await hop();
};

afterEach(async () => {
  requestDispatched();
  await hops(4);
});

describe('request gate', () => {
  it('holds a redraw through many event-loop trips until the request is dispatched, then two hops more', async () => {
    const ran: string[] = [];
    holdForRequest();
    afterRequestLeaves(() => ran.push('redraw'));
    // The save before the request: file operations, each a trip through the poll phase.
    await hops(20);
    expect(ran).toEqual([]);
    expect(requestPending()).toBe(true);
    requestDispatched();
    await hop();
    expect(ran).toEqual([]);
    await hops(2);
    expect(ran).toEqual(['redraw']);
    expect(requestPending()).toBe(false);
  });

  it('without a prompt in flight, a redraw runs two hops later', async () => {
    const ran: string[] = [];
    afterRequestLeaves(() => ran.push('redraw'));
    await hop();
    expect(ran).toEqual([]);
    await hops(2);
    expect(ran).toEqual(['redraw']);
  });

  it('a redraw asked for just before the prompt is submitted (the same key handler) waits for its request too', async () => {
    const ran: string[] = [];
    afterRequestLeaves(() => ran.push('redraw'));
    holdForRequest();
    await hops(10);
    expect(ran).toEqual([]);
    requestDispatched();
    await hops(3);
    expect(ran).toEqual(['redraw']);
  });

  it('lets redraws run after the cap when no request goes out', async () => {
    const ran: string[] = [];
    holdForRequest();
    afterRequestLeaves(() => ran.push('redraw'));
    await new Promise((resolve) => setTimeout(resolve, REDRAW_CAP_MS + 50));
    expect(ran).toEqual(['redraw']);
    expect(requestPending()).toBe(false);
  });
});
