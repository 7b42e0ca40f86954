"""Trains Inertia Lens's demo model: a small Llama on the conversations of training/data.ts.

    npx tsx training/prepare.ts && /usr/bin/python3 training/train.py

Reads training/out/{tokens.bin,meta.json} (written by prepare.ts), writes models/inertia-demo/
{config.json, model.safetensors, training.json} and tests/fixtures/demo-forward.json (this script's own
logits on a fixed input, which the TypeScript graph must reproduce). Debian's python3-torch, CPU only.
The module names follow transformers' modeling_llama.py, so the state dict is the HF checkpoint.
"""
import json, math, os, random, struct, time

import torch
import torch.nn as nn
import torch.nn.functional as F

SEED = 1
MINUTES = float(os.environ.get("TRAIN_MINUTES", "30"))
# Steps, not minutes, make the run the same on any machine. TRAIN_STEPS is the cosine horizon, STOP_AT
# the step to stop at: the committed model is step 2,950 of a 3,300-step run, the snapshot that
# training/pick.ts chose. TRAIN_STEPS=0 trains for TRAIN_MINUTES instead (the horizon then comes from
# the measured speed). SNAPSHOTS="from:every" also writes the model at those steps into MODEL_DIR/step-N.
STEPS = int(os.environ.get("TRAIN_STEPS", "3300"))
STOP = int(os.environ.get("STOP_AT", "2950" if STEPS == 3300 else "0")) or STEPS
SNAPSHOTS = [int(v) for v in os.environ.get("SNAPSHOTS", "0:0").split(":")]
HIDDEN, LAYERS, HEADS, KV_HEADS, INTER = 256, 2, 8, 2, 768
THETA, EPS, MAX_POS = 10000.0, 1e-5, 2048
TOKENS_PER_BATCH, LR, WARMUP = 2048, 3e-3, 100
MODEL_DIR, OUT = os.environ.get("MODEL_DIR", "models/inertia-demo"), "training/out"

torch.set_num_threads(int(os.environ.get("THREADS", "2")))
torch.manual_seed(SEED)
random.seed(SEED)


class RMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * self.weight


def rope(seq_len, head_dim):
    inv = 1.0 / (THETA ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim))
    freqs = torch.outer(torch.arange(seq_len, dtype=torch.float64), inv)
    emb = torch.cat([freqs, freqs], -1)
    return emb.cos().float(), emb.sin().float()


def rotate_half(x):
    x1, x2 = x.chunk(2, -1)
    return torch.cat([-x2, x1], -1)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.hd = HIDDEN // HEADS
        self.q_proj = nn.Linear(HIDDEN, HEADS * self.hd, bias=False)
        self.k_proj = nn.Linear(HIDDEN, KV_HEADS * self.hd, bias=False)
        self.v_proj = nn.Linear(HIDDEN, KV_HEADS * self.hd, bias=False)
        self.o_proj = nn.Linear(HEADS * self.hd, HIDDEN, bias=False)

    def forward(self, x, cos, sin, mask):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, HEADS, self.hd).transpose(1, 2)
        k = self.k_proj(x).view(b, s, KV_HEADS, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(b, s, KV_HEADS, self.hd).transpose(1, 2)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        rep = HEADS // KV_HEADS  # repeat_kv: query head h reads key/value head h // rep
        k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
        att = (q @ k.transpose(-1, -2)) / math.sqrt(self.hd) + mask
        out = att.softmax(-1) @ v
        return self.o_proj(out.transpose(1, 2).reshape(b, s, HEADS * self.hd))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate_proj = nn.Linear(HIDDEN, INTER, bias=False)
        self.up_proj = nn.Linear(HIDDEN, INTER, bias=False)
        self.down_proj = nn.Linear(INTER, HIDDEN, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_layernorm, self.self_attn = RMSNorm(HIDDEN), Attention()
        self.post_attention_layernorm, self.mlp = RMSNorm(HIDDEN), MLP()

    def forward(self, x, cos, sin, mask):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin, mask)
        return x + self.mlp(self.post_attention_layernorm(x))


class Decoder(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, HIDDEN)
        self.layers = nn.ModuleList(Layer() for _ in range(LAYERS))
        self.norm = RMSNorm(HIDDEN)


class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.model = Decoder(vocab)
        for name, p in self.named_parameters():
            if p.dim() == 2:
                nn.init.normal_(p, std=0.02)

    def forward(self, ids):
        s = ids.shape[1]
        cos, sin = rope(s, HIDDEN // HEADS)
        mask = torch.full((s, s), float("-inf")).triu(1)
        x = self.model.embed_tokens(ids)
        for layer in self.model.layers:
            x = layer(x, cos, sin, mask)
        return self.model.norm(x) @ self.model.embed_tokens.weight.T  # tied lm_head


def load_docs():
    with open(f"{OUT}/tokens.bin", "rb") as f:
        data = f.read()
    (n,), at, docs = struct.unpack_from("<I", data, 0), 4, []
    for _ in range(n):
        (length,) = struct.unpack_from("<I", data, at)
        docs.append(list(struct.unpack_from(f"<{length}H", data, at + 4)))
        at += 4 + 2 * length
    return docs


def batches(docs, pad):
    """Length-bucketed batches of about TOKENS_PER_BATCH tokens, padded; pads are not scored."""
    order = sorted(range(len(docs)), key=lambda i: len(docs[i]))
    out, cur = [], []
    for i in order:
        if cur and (len(cur) + 1) * len(docs[i]) > TOKENS_PER_BATCH:
            out.append(cur)
            cur = []
        cur.append(i)
    out.append(cur)
    result = []
    for b in out:
        width = max(len(docs[i]) for i in b)
        ids = torch.full((len(b), width), pad, dtype=torch.long)
        for r, i in enumerate(b):
            ids[r, : len(docs[i])] = torch.tensor(docs[i])
        targets = ids[:, 1:].clone()
        targets[ids[:, 1:] == pad] = -100
        result.append((ids[:, :-1], targets))
    return result


def loss_of(model, ids, targets):
    logits = model(ids)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=-100)


def save_safetensors(path, tensors):
    header, offset, blobs = {}, 0, []
    for name, t in tensors.items():
        b = t.detach().contiguous().float().numpy().tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(b)]}
        offset += len(b)
        blobs.append(b)
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))


def save_model(folder, model, meta):
    """The checkpoint in Hugging Face layout: model.safetensors and config.json."""
    os.makedirs(folder, exist_ok=True)
    save_safetensors(f"{folder}/model.safetensors", {k: v for k, v in model.state_dict().items()})
    config = {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "vocab_size": meta["vocab_size"], "hidden_size": HIDDEN,
        "intermediate_size": INTER, "num_hidden_layers": LAYERS, "num_attention_heads": HEADS,
        "num_key_value_heads": KV_HEADS, "hidden_act": "silu", "rms_norm_eps": EPS, "rope_theta": THETA,
        "rope_scaling": None, "max_position_embeddings": MAX_POS, "tie_word_embeddings": True,
        "attention_bias": False, "mlp_bias": False, "bos_token_id": None, "eos_token_id": meta["eos_id"],
        "pad_token_id": meta["pad_id"], "torch_dtype": "float32",
    }
    json.dump(config, open(f"{folder}/config.json", "w"), indent=2)


def main():
    meta = json.load(open(f"{OUT}/meta.json"))
    vocab, pad = meta["vocab_size"], meta["pad_id"]
    docs = load_docs()
    held_out = docs[-300:]
    train = batches(docs[:-300], pad)
    val = batches(held_out, pad)
    model = LlamaForCausalLM(vocab)
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=LR, betas=(0.9, 0.95), weight_decay=0.01)
    print(f"{params:,} parameters, {len(train)} batches per epoch, {MINUTES} minutes", flush=True)

    start, step, tokens, epoch, est_total = time.time(), 0, 0, 0, None
    log = open(f"{OUT}/train.log", "w")
    done = False
    while not done:
        epoch += 1
        random.shuffle(train)
        for ids, targets in train:
            elapsed = time.time() - start
            if STEPS:
                est_total = STEPS
            elif step == 50:
                est_total = int(50 * MINUTES * 60 / elapsed)  # cosine horizon from the measured speed
            horizon = est_total or 10**9
            lr = LR * min(1.0, (step + 1) / WARMUP) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, step / horizon))))
            for g in opt.param_groups:
                g["lr"] = lr
            loss = loss_of(model, ids, targets)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            tokens += int((targets != -100).sum())
            if step % 50 == 0:
                line = f"step {step} epoch {epoch} loss {loss.item():.4f} lr {lr:.2e} {tokens / (time.time() - start):.0f} tok/s"
                print(line, flush=True)
                log.write(line + "\n")
            if SNAPSHOTS[1] and step >= SNAPSHOTS[0] and (step - SNAPSHOTS[0]) % SNAPSHOTS[1] == 0:
                save_model(f"{MODEL_DIR}/step-{step}", model, meta)
            if (step >= STOP) if STOP else (time.time() - start > MINUTES * 60):
                done = True
                break
    minutes = (time.time() - start) / 60
    model.eval()
    with torch.no_grad():
        n = sum(int((t != -100).sum()) for _, t in val)
        val_loss = sum(loss_of(model, i, t).item() * int((t != -100).sum()) for i, t in val) / n
        fixture_ids = meta["fixture_ids"]
        logits = model(torch.tensor([fixture_ids]))[0]
    print(f"done: {step} steps, {tokens:,} tokens, {minutes:.1f} min, last train loss {loss.item():.4f}, held-out loss {val_loss:.4f}", flush=True)

    save_model(MODEL_DIR, model, meta)
    last = logits[-8:]
    # A trial run into another folder (MODEL_DIR) keeps its fixture there, not over the committed one.
    fixture = "tests/fixtures/demo-forward.json" if MODEL_DIR == "models/inertia-demo" else f"{MODEL_DIR}/demo-forward.json"
    os.makedirs(os.path.dirname(fixture), exist_ok=True)
    json.dump({"ids": fixture_ids, "positions": list(range(len(fixture_ids) - 8, len(fixture_ids))),
               "logits": [[round(float(v), 7) for v in row] for row in last]}, open(fixture, "w"))
    stats = {"parameters": params, "steps": step, "epochs": epoch, "tokens": tokens, "minutes": round(minutes, 1),
             "horizon": est_total, "train_loss": round(loss.item(), 4), "held_out_loss": round(val_loss, 4), "seed": SEED, "torch": torch.__version__,
             "threads": torch.get_num_threads()}
    json.dump(stats, open(f"{MODEL_DIR}/training.json", "w"), indent=2)
    print(json.dumps(stats), flush=True)


if __name__ == "__main__":
    main()
