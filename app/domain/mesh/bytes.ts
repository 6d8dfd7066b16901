// Byte-level helpers for the text formats: growable typed arrays and a float reader with no string allocation.

export class GrowF32 {
  data: Float32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Float32Array(Math.max(16, capacity));
  }
  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.data.length) this.grow(this.length + 3);
    const d = this.data;
    const n = this.length;
    d[n] = a;
    d[n + 1] = b;
    d[n + 2] = c;
    this.length = n + 3;
  }
  grow(min: number): void {
    let cap = this.data.length * 2;
    while (cap < min) cap *= 2;
    const next = new Float32Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  /** A right-sized copy, so the spare capacity can be collected. */
  toArray(): Float32Array {
    return this.data.slice(0, this.length);
  }
}

export class GrowU32 {
  data: Uint32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Uint32Array(Math.max(16, capacity));
  }
  push(a: number): void {
    if (this.length + 1 > this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = a;
  }
  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.data.length) this.grow(this.length + 3);
    const d = this.data;
    const n = this.length;
    d[n] = a;
    d[n + 1] = b;
    d[n + 2] = c;
    this.length = n + 3;
  }
  grow(min: number): void {
    let cap = this.data.length * 2;
    while (cap < min) cap *= 2;
    const next = new Uint32Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  toArray(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

export const POW10 = new Float64Array(23);
for (let i = 0; i <= 22; i++) POW10[i] = Number(`1e${i}`);

function pow10(e: number): number {
  return e <= 22 ? POW10[e] : Math.pow(10, e);
}

/** Position just after the last number read by readNumber (a module variable avoids allocating a result object). */
export let numberEnd = 0;

export function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}

/** readNumber for the common plain decimal of up to 15 digits, small enough for the JIT to inline into parser loops. */
export function readDecimal(b: Uint8Array, i: number, end: number): number {
  let j = i;
  let c = b[j];
  const neg = c === 45;
  if (neg) j++;
  let mant = 0;
  const d0 = j;
  while (j < end) {
    c = b[j] - 48;
    if (c < 0 || c > 9) break;
    mant = mant * 10 + c;
    j++;
  }
  let v: number;
  if (j < end && b[j] === 46) {
    const f0 = ++j;
    while (j < end) {
      c = b[j] - 48;
      if (c < 0 || c > 9) break;
      mant = mant * 10 + c;
      j++;
    }
    // 1 to 15 digits: the mantissa is exact, so this is the same double readNumber computes
    if (j - d0 > 16 || j - d0 < 2) return readNumber(b, i, end);
    v = mant / POW10[j - f0];
  } else {
    if (j - d0 > 15 || j === d0) return readNumber(b, i, end);
    v = mant;
  }
  if (j < end && (b[j] | 32) === 101) return readNumber(b, i, end);
  numberEnd = j;
  return neg ? -v : v;
}

/**
 * Reads a decimal number starting exactly at b[i]; returns NaN when there is none.
 * Literal nan/inf words are read as NaN/Infinity so the caller's finiteness check rejects them.
 */
export function readNumber(b: Uint8Array, i: number, end: number): number {
  // fast path for up to 15 digits: the mantissa is an exact integer, so the result is the same as readNumberSlow's
  const start = i;
  let c = i < end ? b[i] : 0;
  const neg = c === 45;
  if (neg || c === 43) i++;
  let mant = 0;
  const d0 = i;
  while (i < end) {
    c = b[i] - 48;
    if (c < 0 || c > 9) break;
    mant = mant * 10 + c;
    i++;
  }
  let digits = i - d0;
  let exp = 0;
  if (i < end && b[i] === 46) {
    const f0 = ++i;
    while (i < end) {
      c = b[i] - 48;
      if (c < 0 || c > 9) break;
      mant = mant * 10 + c;
      i++;
    }
    exp = f0 - i;
    digits -= exp;
  }
  if (digits === 0 || digits > 15) return readNumberSlow(b, start, end);
  if (i < end && (b[i] | 32) === 101) {
    let j = i + 1;
    const eneg = b[j] === 45;
    if (eneg || b[j] === 43) j++;
    const e0 = j;
    let e = 0;
    while (j < end) {
      c = b[j] - 48;
      if (c < 0 || c > 9) break;
      e = e * 10 + c;
      j++;
    }
    if (j === e0 || j - e0 > 4) return readNumberSlow(b, start, end);
    exp += eneg ? -e : e;
    i = j;
  }
  numberEnd = i;
  let v: number;
  if (exp === 0) v = mant;
  else if (exp > 0) v = mant * pow10(exp);
  else v = exp < -300 ? mant / pow10(-exp - 100) / 1e100 : mant / pow10(-exp);
  return neg ? -v : v;
}

/** The general reader: long mantissas (kept to 17 digits), nan/inf words and malformed input. */
export function readNumberSlow(b: Uint8Array, i: number, end: number): number {
  let neg = false;
  let c = b[i];
  if (c === 45) {
    neg = true;
    i++;
  } else if (c === 43) i++;
  let mant = 0;
  let digits = 0;
  let exp = 0;
  let any = false;
  while (i < end) {
    c = b[i] - 48;
    if (c < 0 || c > 9) break;
    if (digits < 17) {
      mant = mant * 10 + c;
      if (mant !== 0) digits++;
    } else exp++;
    any = true;
    i++;
  }
  if (i < end && b[i] === 46) {
    i++;
    while (i < end) {
      c = b[i] - 48;
      if (c < 0 || c > 9) break;
      if (digits < 17) {
        mant = mant * 10 + c;
        if (mant !== 0) digits++;
        exp--;
      }
      any = true;
      i++;
    }
  }
  if (!any) {
    numberEnd = i;
    const w = i < end ? b[i] | 32 : 0;
    if (w === 105 /* i */) {
      numberEnd = i + 3;
      return neg ? -Infinity : Infinity;
    }
    return NaN;
  }
  if (i < end && (b[i] | 32) === 101) {
    let j = i + 1;
    let eneg = false;
    if (b[j] === 45) {
      eneg = true;
      j++;
    } else if (b[j] === 43) j++;
    let e = 0;
    let edigits = 0;
    while (j < end) {
      c = b[j] - 48;
      if (c < 0 || c > 9) break;
      if (e < 100000) e = e * 10 + c;
      edigits++;
      j++;
    }
    if (edigits > 0) {
      exp += eneg ? -e : e;
      i = j;
    }
  }
  numberEnd = i;
  let v: number;
  if (exp === 0) v = mant;
  else if (exp > 0) v = mant * pow10(exp);
  else v = exp < -300 ? mant / pow10(-exp - 100) / 1e100 : mant / pow10(-exp);
  return neg ? -v : v;
}

/** Reads a (possibly signed) integer; returns NaN when there is none. */
export function readInt(b: Uint8Array, i: number, end: number): number {
  let neg = false;
  if (b[i] === 45) {
    neg = true;
    i++;
  } else if (b[i] === 43) i++;
  let v = 0;
  let any = false;
  while (i < end) {
    const c = b[i] - 48;
    if (c < 0 || c > 9) break;
    v = v * 10 + c;
    any = true;
    i++;
  }
  numberEnd = i;
  if (!any) return NaN;
  return neg ? -v : v;
}

/** Case-insensitive variant for keywords that exporters spell either way. */
export function startsWithAsciiCi(b: Uint8Array, at: number, word: string): boolean {
  if (at + word.length > b.length) return false;
  for (let k = 0; k < word.length; k++) if ((b[at + k] | 32) !== (word.charCodeAt(k) | 32)) return false;
  return true;
}
