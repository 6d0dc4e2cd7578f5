#!/usr/bin/env bash
# Install the language runtimes whose output the golden tests check mined patterns against
# (tests/test_compose_*.py and the site tests run each fixture and fullmatch what it
# prints): Node, a JDK, GCC, PHP, Ruby, Mono's C# compiler and Rust, from Debian.
# A runtime already on PATH is kept; without root the tests that need a missing one skip.
set -euo pipefail

declare -A package=(
    [node]=nodejs [javac]=default-jdk-headless [gcc]=gcc [g++]=g++ [php]=php-cli
    [ruby]=ruby [mcs]=mono-mcs [mono]=mono-runtime [rustc]=rustc
)
missing=()
for tool in "${!package[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("${package[$tool]}")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-toolchains: every runtime the golden tests run is installed"
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "install-toolchains: missing ${missing[*]} and we are not root;" \
         "run 'sudo apt-get install -y ${missing[*]}' (the tests that run them skip)" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-toolchains: installed ${missing[*]}"
