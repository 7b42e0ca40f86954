"""Completes a snapshot that train.py wrote (SNAPSHOTS=from:every) into a checkpoint like its final one.

    CHECKPOINT=<dir>/step-N /usr/bin/python3 training/snapshot.py

Writes <dir>/step-N/training.json (steps, tokens replayed from the seeded batch order, the held-out
loss, minutes estimated from the training log's speed) and <dir>/step-N/demo-forward.json (this
checkpoint's logits on the fixed input, which the TypeScript graph must reproduce).
"""
import json, os, random, re

import torch

import train
from cpl import load_safetensors

CHECKPOINT = os.environ["CHECKPOINT"]
HORIZON = int(os.environ.get("TRAIN_STEPS", "0")) or None


def main():
    step = int(re.search(r"step-(\d+)$", CHECKPOINT.rstrip("/")).group(1))
    meta = json.load(open(f"{train.OUT}/meta.json"))
    docs = train.load_docs()
    batches = train.batches(docs[:-300], meta["pad_id"])
    val = train.batches(docs[-300:], meta["pad_id"])
    # The batch order of train.py: one seeded shuffle per epoch.
    random.seed(train.SEED)
    tokens, seen, epoch = 0, 0, 0
    while seen < step:
        epoch += 1
        random.shuffle(batches)
        for _, targets in batches[: step - seen]:
            tokens += int((targets != -100).sum())
        seen += min(len(batches), step - seen)
    rates = [(int(m[1]), float(m[2])) for m in re.finditer(r"step (\d+) .* (\d+) tok/s", open(f"{train.OUT}/train.log").read())]
    rate = min(rates, key=lambda r: abs(r[0] - step))[1]
    model = train.LlamaForCausalLM(meta["vocab_size"])
    model.load_state_dict(load_safetensors(f"{CHECKPOINT}/model.safetensors"))
    model.eval()
    with torch.no_grad():
        n = sum(int((t != -100).sum()) for _, t in val)
        val_loss = sum(train.loss_of(model, i, t).item() * int((t != -100).sum()) for i, t in val) / n
        ids = meta["fixture_ids"]
        logits = model(torch.tensor([ids]))[0][-8:]
    json.dump({"ids": ids, "positions": list(range(len(ids) - 8, len(ids))),
               "logits": [[round(float(v), 7) for v in row] for row in logits]}, open(f"{CHECKPOINT}/demo-forward.json", "w"))
    stats = {"parameters": sum(p.numel() for p in model.parameters()), "steps": step, "epochs": epoch, "tokens": tokens,
             "minutes": round(tokens / rate / 60, 1), "horizon": HORIZON, "held_out_loss": round(val_loss, 4),
             "seed": train.SEED, "torch": torch.__version__, "threads": torch.get_num_threads(), "snapshot": True}
    json.dump(stats, open(f"{CHECKPOINT}/training.json", "w"), indent=2)
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
