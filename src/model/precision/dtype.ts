/** Conversions between the weight dtypes and float32. Pure bit manipulation, no dependencies. */

export function f16ToF32(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Round-to-nearest-even float32 → float16 bits. */
export function f32ToF16(value: number): number {
  return f32BitsToF16(new Uint32Array(new Float32Array([value]).buffer)[0]!);
}

/** The same from float32 bits (no allocation: BF16 → fp16 runs it per weight). */
export function f32BitsToF16(x: number): number {
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half++;
  return sign | half;
}

/** Round-to-nearest-even float32 → bfloat16 bits. */
export function f32ToBf16(value: number): number {
  const x = new Uint32Array(new Float32Array([value]).buffer)[0]!;
  return ((x + 0x7fff + ((x >>> 16) & 1)) >>> 16) & 0xffff;
}

/**
 * Decodes F32/F16/BF16 little-endian bytes to float32 values: a fresh, aligned copy, or written into
 * `into` (4-byte aligned, at least 4 bytes per value) when given.
 */
export function toFloat32(dtype: 'F32' | 'F16' | 'BF16', bytes: Uint8Array, into?: Uint8Array): Float32Array {
  const n = dtype === 'F32' ? bytes.byteLength / 4 : bytes.byteLength / 2;
  const out = into ? new Float32Array(into.buffer, into.byteOffset, n) : new Float32Array(n);
  if (dtype === 'F32') {
    new Uint8Array(out.buffer, out.byteOffset, 4 * n).set(bytes);
    return out;
  }
  // A view when aligned (one tensor of a file read by ranges usually is), else a copy.
  const u16 = bytes.byteOffset % 2 === 0 ? new Uint16Array(bytes.buffer, bytes.byteOffset, n) : new Uint16Array(bytes.slice().buffer);
  if (dtype === 'BF16') {
    const u32 = new Uint32Array(out.buffer, out.byteOffset, n);
    for (let i = 0; i < n; i++) u32[i] = u16[i]! << 16;
  } else {
    for (let i = 0; i < n; i++) out[i] = f16ToF32(u16[i]!);
  }
  return out;
}

/** F32/F16/BF16 little-endian bytes → float16 bytes (F16 copied as is), into `into` when given. */
export function toFloat16Bytes(dtype: 'F32' | 'F16' | 'BF16', bytes: Uint8Array, into?: Uint8Array): Uint8Array {
  const n = dtype === 'F32' ? bytes.byteLength / 4 : bytes.byteLength / 2;
  const out = into ? new Uint16Array(into.buffer, into.byteOffset, n) : new Uint16Array(n);
  if (dtype === 'F16') out.set(new Uint16Array(bytes.slice().buffer));
  else if (dtype === 'BF16') {
    // bf16 bits are float32's top half: no float32 copy of the tensor.
    const u16 = bytes.byteOffset % 2 === 0 ? new Uint16Array(bytes.buffer, bytes.byteOffset, n) : new Uint16Array(bytes.slice().buffer);
    for (let i = 0; i < n; i++) out[i] = f32BitsToF16((u16[i]! << 16) >>> 0);
  } else {
    const values = toFloat32(dtype, bytes);
    for (let i = 0; i < n; i++) out[i] = f32ToF16(values[i]!);
  }
  return new Uint8Array(out.buffer, out.byteOffset, 2 * n);
}
