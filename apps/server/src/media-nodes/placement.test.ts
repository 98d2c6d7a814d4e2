import { describe, expect, it } from 'vitest';
import type { MediaNodeEntry } from '@sea/contract/media-registry';
import { placeStudent, placeTeacher } from './placement.ts';

const node = (nodeId: string, load: number, more: Partial<MediaNodeEntry> = {}): MediaNodeEntry => ({
  nodeId,
  mediaUrl: `http://${nodeId}.test:5001`,
  capacity: 10,
  load,
  origins: [],
  edges: [],
  at: new Date().toISOString(),
  ...more,
});

describe('placeTeacher', () => {
  it('picks the node with the most free places, the same one every time on a tie', () => {
    expect(placeTeacher([node('a', 5), node('b', 2), node('c', 9)], 7)?.nodeId).toBe('b');
    expect(placeTeacher([node('b', 2), node('a', 2)], 7)?.nodeId).toBe('a');
    expect(placeTeacher([node('a', 1, { capacity: 2 }), node('b', 5, { capacity: 100 })], 7)?.nodeId).toBe(
      'b',
    );
  });

  it('sends a reconnecting teacher back to the node holding the class, even a busy one', () => {
    expect(placeTeacher([node('a', 0), node('b', 9, { origins: [7] })], 7)?.nodeId).toBe('b');
  });

  it('sends a teacher whose origin died to an edge of the class, which takes its room and students over', () => {
    const nodes = [node('a', 0), node('e1', 6, { edges: [7] }), node('e2', 3, { edges: [7] })];
    expect(placeTeacher(nodes, 7)?.nodeId).toBe('e2');
  });

  it('has no answer without nodes', () => {
    expect(placeTeacher([], 7)).toBeNull();
  });
});

describe('placeStudent', () => {
  it('puts students on the origin while it has room, with no origin to pull from', () => {
    expect(placeStudent([node('a', 0), node('b', 9, { origins: [7] })], 7)).toEqual({
      nodeId: 'b',
      mediaUrl: 'http://b.test:5001',
    });
  });

  it('sends students past the origin to an edge already pulling the class, then the roomiest other node', () => {
    const origin = node('o', 10, { origins: [7] });
    expect(placeStudent([origin, node('a', 1), node('e', 8, { edges: [7] })], 7)).toEqual({
      nodeId: 'e',
      mediaUrl: 'http://e.test:5001',
      origin: 'http://o.test:5001',
    });
    expect(placeStudent([origin, node('a', 1), node('b', 4), node('e', 10, { edges: [7] })], 7)).toEqual({
      nodeId: 'a',
      mediaUrl: 'http://a.test:5001',
      origin: 'http://o.test:5001',
    });
  });

  it('names the full origin when every node is full (it refuses the student as full)', () => {
    const placement = placeStudent([node('o', 10, { origins: [7] }), node('a', 10)], 7);
    expect(placement).toEqual({ nodeId: 'o', mediaUrl: 'http://o.test:5001' });
  });

  it('sends students whose origin died to the edge its teacher goes to, where the room waits', () => {
    const nodes = [node('a', 0), node('f', 10, { edges: [7] }), node('e', 3, { edges: [7] })];
    const student = placeStudent(nodes, 7);
    expect(student).toEqual({ nodeId: 'e', mediaUrl: 'http://e.test:5001' });
    expect(placeTeacher(nodes, 7)?.nodeId).toBe(student?.nodeId);
  });

  it('has no answer for a class no node holds (not live)', () => {
    expect(placeStudent([node('a', 0, { origins: [8] })], 7)).toBeNull();
  });
});
