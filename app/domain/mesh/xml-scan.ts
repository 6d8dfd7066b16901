// Streaming XML tag scanner over byte chunks: hands each tag's bytes to a callback without building strings or a DOM.

import { MeshError } from "./errors";

/** Called with the bytes between '<' and '>' (exclusive): buf[start] is the first byte after '<'. */
export type TagHandler = (buf: Uint8Array, start: number, end: number) => void;

/** Optional single-pass reader for hot tags; an object rather than a closure, so optimised code is not tied to one file's closure. */
export interface FastTagReader {
  /** chunk[start] follows '<'; returns the index after '>' once the whole tag is stored, or -1 (nothing stored) for the generic path. */
  readTag(chunk: Uint8Array, start: number, end: number): number;
}

const enum State {
  Text,
  Tag,
  Comment,
  CData,
}

/** The longest tag we accept; real 3MF tags are a few hundred bytes, so this only stops runaway input. */
const MAX_TAG = 1 << 20;

export class XmlTagScanner {
  private state = State.Text;
  private carry = new Uint8Array(256);
  private carryLen = 0;
  private quote = 0;
  /** bytes matched so far of a comment or CDATA terminator ("-->" or "]]>") */
  private term = 0;
  /** the tag starts with '!' (comment, CDATA, declaration): quotes inside carry no meaning there */
  private bang = false;
  constructor(
    private readonly onTag: TagHandler,
    private readonly fastTag: FastTagReader | null = null,
  ) {}

  push(chunk: Uint8Array): void {
    let i = 0;
    const end = chunk.length;
    while (i < end) {
      switch (this.state) {
        case State.Text: {
          // a short manual scan beats indexOf here: the gap between tags is usually a newline and some spaces
          let lt = i;
          while (lt < end && chunk[lt] !== 60) lt++;
          if (lt >= end) return;
          i = lt + 1;
          if (this.fastTag !== null) {
            // hot tags are read where they lie; a tag cut by the chunk end returns -1 and is carried by the generic path
            const next = this.fastTag.readTag(chunk, i, end);
            if (next >= 0) {
              i = next;
              break;
            }
          }
          this.state = State.Tag;
          this.carryLen = 0;
          this.quote = 0;
          i = this.scanTag(chunk, i, end);
          break;
        }
        case State.Tag:
          i = this.scanTag(chunk, i, end);
          break;
        case State.Comment:
          i = this.scanTerminator(chunk, i, end, 45);
          break;
        case State.CData:
          i = this.scanTerminator(chunk, i, end, 93);
          break;
      }
    }
  }

  /** Must be called after the last chunk: an unfinished tag means the part was cut short. */
  finish(): void {
    if (this.state !== State.Text)
      throw new MeshError("This 3MF file is truncated: its model XML ends inside a tag.", "truncated");
  }

  private scanTag(chunk: Uint8Array, i: number, end: number): number {
    const begin = i;
    if (this.carryLen === 0 && i < end) this.bang = chunk[i] === 33;
    let q = this.quote;
    if (this.bang) {
      const gt = chunk.indexOf(62, i);
      i = gt < 0 ? end : gt;
    } else {
      for (; i < end; i++) {
        const c = chunk[i];
        if (q !== 0) {
          if (c === q) q = 0;
        } else if (c === 34 || c === 39) q = c;
        else if (c === 62) break;
      }
    }
    this.quote = q;
    if (i === end) {
      this.append(chunk, begin, end);
      // a comment or CDATA can hold unmatched quotes, so switch modes as soon as the opener is known
      this.checkSpecialOpen();
      return end;
    }
    if (this.carryLen === 0) {
      if (!this.dispatch(chunk, begin, i)) this.openSpecial(chunk[begin + 1]);
      return i + 1;
    }
    this.append(chunk, begin, i);
    const buf = this.carry;
    const len = this.carryLen;
    this.carryLen = 0;
    if (!this.dispatch(buf, 0, len)) this.openSpecial(buf[1]);
    return i + 1;
  }

  /** Handles a tag; returns false when it opens a comment or CDATA that the '>' did not close. */
  private dispatch(buf: Uint8Array, start: number, end: number): boolean {
    const c = buf[start];
    if (c === 33 /* ! */) {
      if (isAt(buf, start, end, "!--")) {
        if (end - start >= 5 && buf[end - 1] === 45 && buf[end - 2] === 45) {
          this.state = State.Text;
          return true;
        }
        return false;
      }
      if (isAt(buf, start, end, "![CDATA[")) {
        if (end - start >= 10 && buf[end - 1] === 93 && buf[end - 2] === 93) {
          this.state = State.Text;
          return true;
        }
        return false;
      }
      if (isAtCi(buf, start, end, "!DOCTYPE") || isAtCi(buf, start, end, "!ENTITY")) {
        throw new MeshError("This 3MF file declares a DTD (<!DOCTYPE>), which is not allowed for security reasons.", "dtd");
      }
      this.state = State.Text;
      return true;
    }
    this.state = State.Text;
    if (c !== 63 /* ? */) this.onTag(buf, start, end);
    return true;
  }

  /** The '>' we stopped on sits inside a comment or CDATA; keep looking for the real terminator after it. */
  private openSpecial(second: number): void {
    this.state = second === 45 ? State.Comment : State.CData;
    this.term = 0;
  }

  private checkSpecialOpen(): void {
    const b = this.carry;
    const n = this.carryLen;
    if (n >= 3 && b[0] === 33 && b[1] === 45 && b[2] === 45) {
      this.state = State.Comment;
      this.term = n >= 5 && b[n - 1] === 45 && b[n - 2] === 45 ? 2 : n >= 4 && b[n - 1] === 45 ? 1 : 0;
      this.carryLen = 0;
    } else if (n >= 8 && isAt(b, 0, n, "![CDATA[")) {
      this.state = State.CData;
      this.term = b[n - 1] === 93 ? (b[n - 2] === 93 ? 2 : 1) : 0;
      this.carryLen = 0;
    } else if (n >= 8 && (isAtCi(b, 0, n, "!DOCTYPE") || isAtCi(b, 0, n, "!ENTITY"))) {
      throw new MeshError("This 3MF file declares a DTD (<!DOCTYPE>), which is not allowed for security reasons.", "dtd");
    }
  }

  /** Looks for "-->" (dash = 45) or "]]>" (dash = 93), remembering partial matches across chunks. */
  private scanTerminator(chunk: Uint8Array, i: number, end: number, dash: number): number {
    let t = this.term;
    for (; i < end; i++) {
      const c = chunk[i];
      if (c === 62 && t >= 2) {
        this.state = State.Text;
        this.term = 0;
        return i + 1;
      }
      t = c === dash ? t + 1 : 0;
    }
    this.term = t;
    return end;
  }

  private append(chunk: Uint8Array, from: number, to: number): void {
    const need = this.carryLen + (to - from);
    if (need > MAX_TAG)
      throw new MeshError("This 3MF file has an XML tag longer than 1 MB, which is not a valid model.", "malformed");
    if (need > this.carry.length) {
      let cap = this.carry.length * 2;
      while (cap < need) cap *= 2;
      const next = new Uint8Array(cap);
      next.set(this.carry.subarray(0, this.carryLen));
      this.carry = next;
    }
    this.carry.set(chunk.subarray(from, to), this.carryLen);
    this.carryLen = need;
  }
}

function isAt(b: Uint8Array, start: number, end: number, word: string): boolean {
  if (end - start < word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[start + k] !== word.charCodeAt(k)) return false;
  return true;
}

function isAtCi(b: Uint8Array, start: number, end: number, word: string): boolean {
  if (end - start < word.length) return false;
  for (let k = 0; k < word.length; k++) if ((b[start + k] | 32) !== (word.charCodeAt(k) | 32)) return false;
  return true;
}

/** Iterates attributes of a tag: calls back with name and value byte ranges (value without quotes). */
export function forEachAttribute(
  buf: Uint8Array,
  start: number,
  end: number,
  cb: (nameStart: number, nameEnd: number, valueStart: number, valueEnd: number) => void,
): void {
  let i = start;
  // skip the element name
  while (i < end && !isWs(buf[i]) && buf[i] !== 47) i++;
  for (;;) {
    while (i < end && (isWs(buf[i]) || buf[i] === 47)) i++;
    if (i >= end) return;
    const ns = i;
    while (i < end && buf[i] !== 61 && !isWs(buf[i])) i++;
    const ne = i;
    while (i < end && isWs(buf[i])) i++;
    if (buf[i] !== 61) {
      // attribute without a value: not valid XML, skip the word
      continue;
    }
    i++;
    while (i < end && isWs(buf[i])) i++;
    const q = buf[i];
    if (q !== 34 && q !== 39) return;
    const vs = i + 1;
    let ve = vs;
    while (ve < end && buf[ve] !== q) ve++;
    cb(ns, ne, vs, ve);
    i = ve + 1;
  }
}

function isWs(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Local element name range (namespace prefix dropped); name starts at buf[start] (or after '/' for closing tags). */
export function localName(buf: Uint8Array, start: number, end: number): [number, number] {
  let i = start;
  let ls = start;
  while (i < end && !isWs(buf[i]) && buf[i] !== 47 && buf[i] !== 62) {
    if (buf[i] === 58) ls = i + 1;
    i++;
  }
  return [ls, i];
}

export function nameEquals(buf: Uint8Array, s: number, e: number, word: string): boolean {
  if (e - s !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (buf[s + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** Attribute local name equals word (a prefix like "p:" is ignored). */
export function attrIs(buf: Uint8Array, s: number, e: number, word: string): boolean {
  let ls = s;
  for (let k = s; k < e; k++) if (buf[k] === 58) ls = k + 1;
  return nameEquals(buf, ls, e, word);
}

const decoder = new TextDecoder();
export function decodeValue(buf: Uint8Array, s: number, e: number): string {
  return decoder
    .decode(buf.subarray(s, e))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
