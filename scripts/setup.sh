#!/usr/bin/env bash
# Installs the Debian packages openacl builds with, when they are missing (apt-get as root,
# or through sudo). Safe to run again: it only installs what dpkg does not know yet.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config clang-format
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev
  libdnnl-dev libonnx-dev libprotobuf-dev protobuf-compiler
  pybind11-dev python3-dev python3-numpy python3-pytest
  libjpeg62-turbo-dev libpng-dev libavcodec-dev libavutil-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} > 0)); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "setup: node and npm are needed to fetch the test models (npm registry)" >&2
  exit 1
fi
