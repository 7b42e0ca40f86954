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
  const f = new Float32Array([value]);
  const x = new Uint32Array(f.buffer)[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
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

/** Decodes F32/F16/BF16 little-endian bytes to float32 values (always a fresh, aligned copy). */
export function toFloat32(dtype: 'F32' | 'F16' | 'BF16', bytes: Uint8Array): Float32Array {
  if (dtype === 'F32') return new Float32Array(bytes.slice().buffer);
  const n = bytes.byteLength / 2;
  // A view when aligned (one tensor of a file read by ranges usually is), else a copy.
  const u16 = bytes.byteOffset % 2 === 0 ? new Uint16Array(bytes.buffer, bytes.byteOffset, n) : new Uint16Array(bytes.slice().buffer);
  const out = new Float32Array(n);
  if (dtype === 'BF16') {
    const u32 = new Uint32Array(out.buffer);
    for (let i = 0; i < n; i++) u32[i] = u16[i]! << 16;
  } else {
    for (let i = 0; i < n; i++) out[i] = f16ToF32(u16[i]!);
  }
  return out;
}

/** F32/F16/BF16 little-endian bytes → float16 bytes (F16 passes through untouched). */
export function toFloat16Bytes(dtype: 'F32' | 'F16' | 'BF16', bytes: Uint8Array): Uint8Array {
  if (dtype === 'F16') return bytes;
  const values = toFloat32(dtype, bytes);
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = f32ToF16(values[i]!);
  return new Uint8Array(out.buffer);
}
