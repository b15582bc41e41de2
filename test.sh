#!/usr/bin/env bash
# Runs every weft test. Installs Yosys, Verilator, Icarus Verilog and nextpnr-ice40 from
# Debian's packages first when any of them is missing (needs root or sudo).
set -euo pipefail
cd "$(dirname "$0")"

missing=()
command -v yosys >/dev/null || missing+=(yosys)
command -v verilator >/dev/null || missing+=(verilator)
command -v iverilog >/dev/null || missing+=(iverilog)
command -v nextpnr-ice40 >/dev/null || missing+=(nextpnr-ice40)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} from Debian's packages"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi
echo "tools: $(yosys -V | head -1); $(verilator --version); $(iverilog -V 2>/dev/null | head -1); $(nextpnr-ice40 --version 2>&1 | head -1)"

cargo test --release --workspace
