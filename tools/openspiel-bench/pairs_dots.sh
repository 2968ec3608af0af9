#!/bin/bash
# Alternating pairs, dots-and-boxes 3x3, pinned to core 1, 2 s per measurement.
cd "$(dirname "$0")"
export RAYON_NUM_THREADS=1
os() { taskset -c 1 ./bench 2 "dots_and_boxes(num_rows=3,num_cols=3)" | grep dots | sed "s/^/pair $1 OS /"; }
wp() { taskset -c 1 ${WOPR:-wopr} bench --json --seconds 2 --game dots-and-boxes:3x3 | sed "s/^/pair $1 WOPR /";
       taskset -c 1 ${WOPR:-wopr} bench --json --listed --seconds 2 --game dots-and-boxes:3x3 | sed "s/^/pair $1 WOPRL /"; }
for i in $(seq 1 ${1:-7}); do
  echo "pair $i load $(cat /proc/loadavg) | $(ps -eo psr,ni,pcpu,comm --sort=-pcpu | sed -n 2,4p | tr -s ' ' | tr '\n' ';')"
  if [ $((i % 2)) = 1 ]; then os $i; wp $i; else wp $i; os $i; fi
done
