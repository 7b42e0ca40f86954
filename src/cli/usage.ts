/** What `inertia-lens --help` prints: every command and option. */
export const USAGE = `inertia-lens — conversational inertia, measured on a real model's attention

Usage:
  inertia-lens inspect-model <model-dir> [--layer L]... [--dtype D] [--json]
  inertia-lens forward <model-dir> --text "..." [--chat] [--top K] [--layer L] [--dtype D] [--json]
  inertia-lens analyze <conversation-file> [--model <dir>]... [--policy SPEC]... [--turn N] [--layer L]
                       [--radius R] [--sweep] [--json] [--dump-attention] [--all-layers] [--ablate L.H]... [--ablate-top K]
  inertia-lens batch <file.jsonl> [--model <dir>]... [--policy SPEC]... [--out results.csv] [--sweep]
                       [--turn N] [--layer L] [--radius R] [--shard K/N|auto [--shards N] --out DIR]
  inertia-lens merge <DIR> [--out results.csv]
  inertia-lens report <results.csv> --out DIR [--by model,policy,...] [--group-field F --input file.jsonl]

Commands:
  inspect-model   load a Hugging Face model folder, build its attention graph, print the normalized
                  config, parameter count, weight dtype, and the graph's outputs
  forward         run one forward pass; print the top next tokens and the shape and row sums of the
                  inspected layer's attention (default: the final layer)
  analyze         score one answer of a conversation (default: the last) under each policy: category
                  shares of the final layer's attention, the diagonal inertia ratio, copy measures, cost
  batch           the same over a JSONL file (one conversation per line), one CSV row per
                  conversation × policy (× turn with --sweep); bad lines are reported and skipped.
                  With --shard, one task of a job array: its lines into DIR/part-K-of-N.csv and .json
                  (a manifest); run again, it resumes where it stopped
  merge           the parts of a sharded batch in DIR as one CSV, in line order (the same bytes one
                  unsharded batch writes); exits 2 naming the shards and lines still missing
  report          a batch CSV's tables and figures (paper 2's Table 13, Fig. 2, Fig. 6): per group the mean
                  and a seeded bootstrap 95 % interval of each share and the diagonal ratio (table.csv,
                  table.md), the shares by turn with --sweep rows (turns.csv, turns.svg), and each
                  policy's change against Full (policy-change.csv, policy-change.svg)

Options:
  --text S    the input text, tokenized as is (with --chat: as one user message, through the chat template)
  --layer L   inspect layer L (0-based; repeatable for inspect-model); default the final layer
  --top K     how many next tokens to print (default 5)
  --dtype D   compute dtype: auto (default; fp32 in Node), fp32, or fp16 (norms and softmax stay fp32)
  --template T  for a model with no chat template (a base model): render with the named fallback, chatml or
              plain ("User: …" turns), marked on every figure; a model with a template of its own ignores it
  --quant Q   weight precision: none (default: the checkpoint's own), q8, q4 or q4g128 (every linear layer,
              the head and the embedding quantized as they are read, in blocks of 32; q4g128 in AWQ's groups
              of 128: smaller, coarser; named in every figure)
  --model D   the model for analyze and batch: a folder (default: the embedded demo model, models/inertia-demo)
              or a Hub id, owner/name[@revision], downloaded once into the Hugging Face cache (HF_HOME,
              HF_HUB_CACHE, HF_TOKEN, HF_ENDPOINT, HF_HUB_OFFLINE as the Python tools read them); repeat it to
              compare models: each runs in turn, and analyze prints each against the first
  --policy S  full, window:W, clip:H:L, summary:H:L, ao, ao-last, ao-second-last, cut-last, lt, sum, de, filler (repeatable; default full)
  --turn N    the assistant turn to score, 1-based (default: the last); later messages are ignored
  --radius R  diagonal radius r (default 5)
  --sweep     also score every turn t ≥ 2 (paper 2's Fig. 2 curve)
  --dump-attention  include the head-mean attention rows of the answer's tokens (analyze --json)
  --all-layers  analyze: every layer's and head's shares and diagonal ratio too, from one pass (the graph
              reduces each layer's attention; JSON: each result's layers: [{layer, ratios, diagonal, perHead}]);
              batch: the long-format CSV instead, one row per line × policy × layer × head (head "mean" first)
  --ablate L.H  analyze and batch: switch head H of layer L off (0-based; repeatable): its output is zeroed
              before o_proj in every pass (zero ablation); named in the output and as ablation in the JSON
  --ablate-top K  analyze: switch off the K heads with the highest diagonal ratio under Full (any layer)
  --ablate-mean  analyze: switch those heads off by replacing each one's output with its mean over the
              conversation's tokens (Full, every head on) instead of zero (mean ablation)
  --generate  analyze: each policy's greedy answer at the turn (JSON: answer.text); with heads switched off,
              also the answer with every head on and how they compare (answer.withEveryHeadOn, comparison)
  --out F     batch: write the CSV to F (default: stdout); with --shard, the folder for the parts;
              merge: the merged CSV (default: stdout)
  --shard S   batch: K/N (K from 0) analyses the lines n with (n − 1) mod N = K; auto reads K and N from
              the scheduler: Slurm arrays (SLURM_ARRAY_TASK_ID/COUNT), AWS Batch, Cloud Run, Kubernetes
              Indexed Jobs (JOB_COMPLETION_INDEX, with --shards N)
  --shards N  batch --shard auto: the number of shards, where the scheduler does not say it (Kubernetes) or
              says another (a Slurm task resubmitted alone)
  --backend B wasm (default: onnxruntime-web, as in the browser) or native (onnxruntime-node: the machine's
              own runtime, faster, and not bound by wasm's 4 GiB)
  --device D  with --backend native: cpu (default) or cuda (an NVIDIA GPU, when onnxruntime-node's CUDA
              libraries are installed: cd node_modules/onnxruntime-node && ONNXRUNTIME_NODE_INSTALL=cuda12
              node script/install)
  --by K,...  report: the columns to group by (default model, policy and the group field)
  --group-field F  report: group by the field F of each JSONL line (e.g. env), read from --input
  --input F   report: the JSONL file the batch read
  --threads T threads per pass (default: every core, at most 8 on wasm); give cores ÷ N to N processes
              sharing a machine (N shards of one batch)
  --date D    the date (YYYY-MM-DD) a chat template that asks for today's date gets (default 2024-07-26,
              fixed so figures are reproducible)
  --json      print one JSON object instead of text
`;
