import onnxProto from 'onnx-proto';
import type { TensorBytes } from '../checkpoint/tensor-bytes';

const { onnx } = onnxProto;
export type NodeProto = onnxProto.onnx.INodeProto;
export type TensorProto = onnxProto.onnx.ITensorProto;

/** ONNX TensorProto.DataType codes we use. */
export const DT = { FLOAT: 1, UINT8: 2, INT32: 6, INT64: 7, BOOL: 9, FLOAT16: 10, BFLOAT16: 16 } as const;

/** Attribute values: integers (INT), integer lists (INTS) or strings. Float constants go in as inputs. */
/** A float attribute (plain numbers are integer attributes). */
export class FloatAttr {
  constructor(readonly value: number) {}
}

type Attr = number | number[] | string | FloatAttr;

/** An external-data file the session needs: its path in the graph, and its bytes, read when the runtime asks. */
export interface ExternalFile {
  path: string;
  data: TensorBytes;
}

/**
 * A minimal ONNX graph writer: nodes get generated output names, small constants are inline
 * initializers, weights are external data so the ModelProto stays small (protobuf caps it at 2 GB).
 */
export class GraphBuilder {
  readonly nodes: NodeProto[] = [];
  readonly initializers: TensorProto[] = [];
  readonly externalFiles: ExternalFile[] = [];
  private counter = 0;

  private fresh(hint: string): string {
    return `${hint}_${this.counter++}`;
  }

  /** Adds one node and returns its output names. */
  opN(opType: string, inputs: string[], outputs: number | string[], attrs: Record<string, Attr> = {}, domain = ''): string[] {
    const outs = typeof outputs === 'number' ? Array.from({ length: outputs }, () => this.fresh(opType)) : outputs;
    const attribute = Object.entries(attrs).map(([name, v]) => {
      if (typeof v === 'string') return { name, type: 3, s: new TextEncoder().encode(v) };
      if (Array.isArray(v)) return { name, type: 7, ints: v };
      if (v instanceof FloatAttr) return { name, type: 1, f: v.value };
      if (!Number.isInteger(v)) throw new Error(`attribute ${name} of ${opType} must be an integer (wrap floats in FloatAttr)`);
      return { name, type: 2, i: v };
    });
    if (domain) this.domains.add(domain);
    this.nodes.push(onnx.NodeProto.create({ opType, input: inputs, output: outs, name: outs[0], attribute, ...(domain && { domain }) }));
    return outs;
  }

  /** Operator domains used besides the default one (e.g. com.microsoft), for the opset imports. */
  private readonly domains = new Set<string>();

  /** Adds one single-output node and returns its output name (or writes to `output` when given). */
  op(opType: string, inputs: string[], attrs: Record<string, Attr> = {}, output?: string, domain = ''): string {
    return this.opN(opType, inputs, output ? [output] : 1, attrs, domain)[0]!;
  }

  int64(values: number[], dims: number[] = [values.length], hint = 'i64'): string {
    const raw = new Uint8Array(values.length * 8);
    const view = new DataView(raw.buffer);
    values.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
    const name = this.fresh(hint);
    this.initializers.push(onnx.TensorProto.create({ name, dataType: DT.INT64, dims, rawData: raw }));
    return name;
  }

  float(values: number[], dims: number[] = [values.length], hint = 'f32'): string {
    const name = this.fresh(hint);
    this.initializers.push(onnx.TensorProto.create({ name, dataType: DT.FLOAT, dims, rawData: new Uint8Array(new Float32Array(values).buffer) }));
    return name;
  }

  /** A weight stored as external data: the graph keeps only its name, shape and file reference. */
  external(name: string, dataType: number, dims: number[], data: TensorBytes): string {
    const path = `w${this.externalFiles.length}.bin`;
    this.externalFiles.push({ path, data });
    this.initializers.push(
      onnx.TensorProto.create({
        name,
        dataType,
        dims,
        dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
        externalData: [
          { key: 'location', value: path },
          { key: 'offset', value: '0' },
          { key: 'length', value: String(data.byteLength) },
        ],
      }),
    );
    return name;
  }

  /** Encodes the graph with the given typed inputs/outputs at opset 17. */
  encode(inputs: ValueInfo[], outputs: ValueInfo[]): Uint8Array {
    const vi = (v: ValueInfo) =>
      onnx.ValueInfoProto.create({
        name: v.name,
        type: { tensorType: { elemType: v.type, shape: { dim: v.dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } },
      });
    const graph = onnx.GraphProto.create({
      name: 'inertia_lens',
      node: this.nodes,
      initializer: this.initializers,
      input: inputs.map(vi),
      output: outputs.map(vi),
    });
    const opsetImport = [{ domain: '', version: 17 }, ...[...this.domains].map((domain) => ({ domain, version: 1 }))];
    const model = onnx.ModelProto.create({ irVersion: 8, opsetImport, producerName: 'inertia-lens', graph });
    return onnx.ModelProto.encode(model).finish();
  }
}

export interface ValueInfo {
  name: string;
  type: number;
  /** Numbers are fixed sizes, strings are symbolic ("seq"). */
  dims: (number | string)[];
}
