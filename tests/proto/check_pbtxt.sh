#!/usr/bin/env bash
# check_pbtxt.sh DUMP_FORMATS PROTO_DIR DATA_DIR: writes pbtxt, GE txt and DOT
# for every tests/data/*.readable.py and validates them with the real tools:
# `protoc --encode` parses text format against the schema (failing on any
# unknown field, bad enum or syntax error), `dot -Tsvg` renders the DOT.
set -euo pipefail
dump=$1 proto_dir=$2 data_dir=$3
for tool in protoc dot; do
  command -v "$tool" >/dev/null || { echo "check_pbtxt: $tool not installed (scripts/setup)"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$dump" "$tmp" "$data_dir"/*.readable.py
cp "$data_dir"/torchair_style_add.pbtxt "$tmp"/torchair_sample.pbtxt
count=0
for f in "$tmp"/*.pbtxt; do
  protoc --proto_path="$proto_dir" --encode=airscope.check.GraphDef graphdef.proto <"$f" >/dev/null ||
    { echo "check_pbtxt: $(basename "$f") does not parse as a GraphDef"; exit 1; }
  count=$((count + 1))
done
for f in "$tmp"/*.ge.txt; do
  protoc --proto_path="$proto_dir" --encode=ge.proto.ModelDef ge_ir.proto <"$f" >/dev/null ||
    { echo "check_pbtxt: $(basename "$f") does not parse as a ge.proto.ModelDef"; exit 1; }
  count=$((count + 1))
done
for f in "$tmp"/*.dot; do
  dot -Tsvg "$f" >/dev/null || { echo "check_pbtxt: $(basename "$f") does not render"; exit 1; }
  count=$((count + 1))
done
echo "check_pbtxt: $count files valid"
