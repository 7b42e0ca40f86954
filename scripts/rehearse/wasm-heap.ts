/**
 * The size of onnxruntime-web's wasm heap, for the benchmarks. A wasm32 heap is what limits the wasm
 * backend (4 GiB, planned as 3.5: model/memory/memory.ts WASM_LIMITS), and it never shrinks, so its size after a
 * load and a pass is their peak. onnxruntime does not expose its module, so the memory is caught where it
 * is made: the threaded build constructs it in JavaScript, the single-threaded one exports it. Import this
 * before onnxruntime-web starts.
 */
const memories: WebAssembly.Memory[] = [];
const OriginalMemory = WebAssembly.Memory;
const catching = function (this: unknown, descriptor: WebAssembly.MemoryDescriptor) {
  const m = new OriginalMemory(descriptor);
  memories.push(m);
  return m;
} as unknown as typeof WebAssembly.Memory;
catching.prototype = OriginalMemory.prototype;
(WebAssembly as { Memory: typeof WebAssembly.Memory }).Memory = catching;
const instantiate = WebAssembly.instantiate.bind(WebAssembly);
(WebAssembly as { instantiate: unknown }).instantiate = async (...args: Parameters<typeof WebAssembly.instantiate>) => {
  const made = (await instantiate(...args)) as WebAssembly.WebAssemblyInstantiatedSource | WebAssembly.Instance;
  const instance = 'instance' in made ? made.instance : made;
  for (const v of Object.values(instance.exports)) if (v instanceof OriginalMemory && !memories.includes(v)) memories.push(v);
  return made;
};

/** The largest wasm memory made so far (onnxruntime's heap), in bytes; null before onnxruntime has started. */
export function wasmHeapBytes(): number | null {
  return memories.length ? Math.max(...memories.map((m) => m.buffer.byteLength)) : null;
}
