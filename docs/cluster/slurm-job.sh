#!/bin/bash
# A batch over a JSONL file as a Slurm job array: each task analyses one shard and writes
# results/part-K-of-16.csv with its manifest; rerun a task and it resumes. Then: inertia-lens merge results.
#SBATCH --job-name=inertia-lens
#SBATCH --array=0-15
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=4
#SBATCH --mem=32G
#SBATCH --time=12:00:00
#SBATCH --output=logs/%A_%a.log
#SBATCH --requeue
set -euo pipefail
# One copy of the model per node, shared by the tasks there (pin the revision to a commit for a long job).
export HF_HOME=${HF_HOME:-$HOME/.cache/huggingface}
# --shards 16: a task resubmitted alone (sbatch --array=5 slurm-job.sh) is still shard 5 of 16.
exec npx inertia-lens batch data/conversations.jsonl \
  --model Qwen/Qwen3-8B@main --quant q4 \
  --backend native --device cuda --threads "$SLURM_CPUS_PER_TASK" \
  --policy full --policy clip:12:1 --policy window:6 --policy ao --sweep \
  --shard auto --shards 16 --out results
