import { afterEach, describe, expect, it, vi } from 'vitest';
import { Emitter } from './emitter.ts';

type Events = { changed: number; closed: undefined };

afterEach(() => vi.restoreAllMocks());

describe('Emitter', () => {
  it('calls the listeners of an event with its value until they stop listening', () => {
    const events = new Emitter<Events>();
    const seen: number[] = [];
    const stop = events.on('changed', (value) => seen.push(value));
    events.on('closed', () => seen.push(-1));
    events.emit('changed', 1);
    stop();
    stop();
    events.emit('changed', 2);
    expect(seen).toEqual([1]);
    expect(events.size).toBe(1);
  });

  it('calls the listeners present when the emission starts, even one removed by another', () => {
    const events = new Emitter<Events>();
    const seen: string[] = [];
    let stopSecond = () => undefined as void;
    events.on('changed', () => {
      seen.push('first');
      stopSecond();
      events.on('changed', () => seen.push('added'));
    });
    stopSecond = events.on('changed', () => seen.push('second'));
    events.emit('changed', 1);
    expect(seen).toEqual(['first', 'second']);
  });

  it('reports a throwing listener and still calls the others', () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const events = new Emitter<Events>();
    const seen: number[] = [];
    events.on('changed', () => {
      throw new Error('bug');
    });
    events.on('changed', (value) => seen.push(value));
    expect(() => events.emit('changed', 3)).not.toThrow();
    expect(seen).toEqual([3]);
    expect(reported).toHaveBeenCalledOnce();
  });

  it('forgets every listener on clear', () => {
    const events = new Emitter<Events>();
    const listener = vi.fn();
    events.on('changed', listener);
    events.on('changed', listener);
    events.clear();
    events.emit('changed', 1);
    expect(listener).not.toHaveBeenCalled();
    expect(events.size).toBe(0);
  });
});
