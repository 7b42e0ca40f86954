"""Context Preference Learning, step 2 (paper 2 §2.1, Appendix D.1): DPO with LoRA on the pairs that
training/cpl-pairs.ts collected, starting from the committed demo model, merged into a checkpoint.

    npx tsx training/cpl-pairs.ts && /usr/bin/python3 training/cpl.py

The second twin, trained toward the answer written with no earlier turn (DE) instead of the turn before:

    CPL_WINDOW=0 CPL_PAIRS=training/out/cpl-de-pairs.json npx tsx training/cpl-pairs.ts
    CPL_PAIRS=training/out/cpl-de-pairs.json MODEL_DIR=models/inertia-demo-cpl-de \
      CPL_FIXTURE=tests/fixtures/cpl-de-forward.json /usr/bin/python3 training/cpl.py

Reads models/inertia-demo/ and training/out/cpl-pairs.json; writes models/inertia-demo-cpl/
{config.json, model.safetensors, tokenizer files, training.json}. Both answers of a pair are scored
with the short context as input (the paper's design): the short-context answer is chosen, the
long-context one rejected. Debian's python3-torch, CPU only, seeded.
"""
import json, math, os, random, shutil, struct, time

import torch
import torch.nn as nn
import torch.nn.functional as F

import train  # the demo model's modules (transformers' modeling_llama names, so the state dict is the HF checkpoint)

SEED = 1
RANK, ALPHA = int(os.environ.get("CPL_RANK", "4")), float(os.environ.get("CPL_ALPHA", "4"))
BETA, LR, EPOCHS = float(os.environ.get("CPL_BETA", "0.1")), float(os.environ.get("CPL_LR", "1e-3")), int(os.environ.get("CPL_EPOCHS", "3"))
TARGETS = tuple(os.environ.get("CPL_TARGETS", "q_proj,k_proj,v_proj,o_proj").split(","))
# What DPO scores of each answer: all of it (the paper), or its decision only ("decision": the thought
# and the action, from the token that ends the copied list of cells; cpl-pairs.ts marks it).
SCORE = os.environ.get("CPL_SCORE", "answer")
BASE = "models/inertia-demo"
MODEL_DIR = os.environ.get("MODEL_DIR", "models/inertia-demo-cpl")
PAIRS = os.environ.get("CPL_PAIRS", "training/out/cpl-pairs.json")

torch.manual_seed(SEED)
random.seed(SEED)


def load_safetensors(path):
    data = open(path, "rb").read()
    (n,) = struct.unpack_from("<Q", data, 0)
    header = json.loads(data[8 : 8 + n])
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        assert info["dtype"] == "F32", f"{path}: {name} is {info['dtype']}, this script reads F32"
        a, b = info["data_offsets"]
        out[name] = torch.frombuffer(bytearray(data[8 + n + a : 8 + n + b]), dtype=torch.float32).reshape(info["shape"])
    return out


class LoRALinear(nn.Module):
    """W' = W + (α / r) · B · A (Hu et al., 2022): W frozen, B starts at zero so training starts at the base model."""

    def __init__(self, base: nn.Linear):
        super().__init__()
        self.base = base
        base.weight.requires_grad_(False)
        self.A = nn.Parameter(torch.randn(RANK, base.in_features) / math.sqrt(base.in_features))
        self.B = nn.Parameter(torch.zeros(base.out_features, RANK))
        self.scale = ALPHA / RANK

    def forward(self, x):
        return self.base(x) + (x @ self.A.T @ self.B.T) * self.scale

    def merged(self):
        return self.base.weight + self.scale * self.B @ self.A


def with_lora(model):
    for layer in model.model.layers:
        for block in (layer.self_attn, layer.mlp):
            for name in TARGETS:
                if hasattr(block, name):
                    setattr(block, name, LoRALinear(getattr(block, name)))
    return model


def response_logprobs(model, seqs):
    """For each (prompt, response, first scored token): the sum of log p(response tokens | prompt, earlier
    response tokens) from that token on, from one right-padded batch (causal attention: padding after a
    sequence changes nothing in it)."""
    width = max(len(p) + len(r) for p, r, _ in seqs)
    ids = torch.zeros((len(seqs), width), dtype=torch.long)
    scored = torch.zeros((len(seqs), width - 1))
    for i, (p, r, f) in enumerate(seqs):
        ids[i, : len(p) + len(r)] = torch.tensor(p + r)
        scored[i, len(p) - 1 + f : len(p) + len(r) - 1] = 1
    logp = F.log_softmax(model(ids[:, :-1]), -1).gather(2, ids[:, 1:, None])[..., 0]
    return (logp * scored).sum(1)


def pair_logprobs(model, batch):
    """Chosen and rejected log-probabilities of each pair, both given the pair's short context."""
    start = (lambda p, k: p[k] if SCORE == "decision" else 0)
    out = response_logprobs(model, [(p["prompt"], p["chosen"], start(p, "chosenFrom")) for p in batch] + [(p["prompt"], p["rejected"], start(p, "rejectedFrom")) for p in batch])
    return out[: len(batch)], out[len(batch) :]


def main():
    data = json.load(open(PAIRS))
    pairs = data["pairs"]
    config = json.load(open(f"{BASE}/config.json"))
    state = load_safetensors(f"{BASE}/model.safetensors")
    policy = train.LlamaForCausalLM(config["vocab_size"])
    policy.load_state_dict(state)
    for p in policy.parameters():
        p.requires_grad_(False)
    policy = with_lora(policy)
    trainable = [p for p in policy.parameters() if p.requires_grad]
    n_train, n_all = sum(p.numel() for p in trainable), sum(p.numel() for p in state.values())
    # The reference model is the base: its log-probabilities are fixed, computed once.
    with torch.no_grad():
        ref_c, ref_r = zip(*(pair_logprobs(policy, pairs[i : i + 16]) for i in range(0, len(pairs), 16)))
        ref_c, ref_r = torch.cat(ref_c), torch.cat(ref_r)
    random.shuffle(held := list(range(len(pairs))))
    n_val = max(1, len(pairs) // 10)
    val, tr = held[:n_val], held[n_val:]
    opt = torch.optim.AdamW(trainable, lr=LR, weight_decay=0.0)
    print(f"{len(pairs)} pairs ({len(tr)} train, {len(val)} held out); LoRA rank {RANK}, alpha {ALPHA}: {n_train:,} of {n_all:,} parameters ({100 * n_train / n_all:.2f}%); beta {BETA}, lr {LR}, {EPOCHS} epochs", flush=True)

    def dpo(idx):
        """DPO loss (mean) and each pair's margin: β-free log-ratio of chosen over rejected, policy against reference."""
        c, r = pair_logprobs(policy, [pairs[i] for i in idx])
        margin = (c - ref_c[idx]) - (r - ref_r[idx])
        return -F.logsigmoid(BETA * margin).mean(), margin

    def evaluate(idx):
        with torch.no_grad():
            loss, margin = dpo(idx)
        return loss.item(), (margin > 0).float().mean().item()

    start, step, log = time.time(), 0, []
    loss0, acc0 = evaluate(val)
    print(f"before: held-out DPO loss {loss0:.4f}, chosen preferred {acc0:.2f}", flush=True)
    for epoch in range(1, EPOCHS + 1):
        random.shuffle(tr)
        for b in range(0, len(tr), 8):
            loss = dpo(tr[b : b + 8])[0]
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(trainable, 1.0)
            opt.step()
            step += 1
        vl, va = evaluate(val)
        log.append({"epoch": epoch, "held_out_loss": round(vl, 4), "chosen_preferred": round(va, 3)})
        print(f"epoch {epoch}: {step} steps, held-out DPO loss {vl:.4f}, chosen preferred {va:.2f}, {time.time() - start:.0f} s", flush=True)

    merged = {}
    for name, t in state.items():
        merged[name] = t
    for li, layer in enumerate(policy.model.layers):
        for kind, block in (("self_attn", layer.self_attn), ("mlp", layer.mlp)):
            for name in TARGETS:
                if hasattr(block, name):
                    merged[f"model.layers.{li}.{kind}.{name}.weight"] = getattr(block, name).merged().detach()
    # The merged checkpoint must compute what the LoRA model computed.
    check = train.LlamaForCausalLM(config["vocab_size"])
    check.load_state_dict(merged)
    with torch.no_grad():
        fixture_ids = pairs[0]["prompt"] + pairs[0]["chosen"]
        logits = check(torch.tensor([fixture_ids]))[0]
        gap = (logits - policy(torch.tensor([fixture_ids]))[0]).abs().max().item()
    assert gap < 1e-4, f"the merged weights differ from the LoRA model by {gap}"
    os.makedirs(MODEL_DIR, exist_ok=True)
    # This script's own logits on a fixed input, which the TypeScript graph must reproduce (as train.py's).
    fixture = os.environ.get("CPL_FIXTURE", "tests/fixtures/cpl-forward.json" if MODEL_DIR == "models/inertia-demo-cpl" else f"{MODEL_DIR}/cpl-forward.json")
    json.dump({"ids": fixture_ids, "positions": list(range(len(fixture_ids) - 8, len(fixture_ids))),
               "logits": [[round(float(v), 7) for v in row] for row in logits[-8:]]}, open(fixture, "w"))
    train.save_safetensors(f"{MODEL_DIR}/model.safetensors", merged)
    json.dump(config, open(f"{MODEL_DIR}/config.json", "w"), indent=2)
    for f in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(f"{BASE}/{f}", f"{MODEL_DIR}/{f}")
    stats = {
        "base": BASE, "pairs": data["summary"], "train_pairs": len(tr), "held_out_pairs": len(val),
        "lora": {"rank": RANK, "alpha": ALPHA, "targets": list(TARGETS), "trainable": n_train, "share": round(n_train / n_all, 4)},
        "dpo": {"beta": BETA, "lr": LR, "epochs": EPOCHS, "batch": 8, "steps": step, "scored": SCORE}, "before": {"held_out_loss": round(loss0, 4), "chosen_preferred": round(acc0, 3)},
        "epochs": log, "minutes": round((time.time() - start) / 60, 1), "seed": SEED, "torch": torch.__version__, "threads": torch.get_num_threads(),
    }
    json.dump(stats, open(f"{MODEL_DIR}/training.json", "w"), indent=2)
    print(json.dumps(stats), flush=True)


if __name__ == "__main__":
    main()
