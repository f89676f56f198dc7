#!/usr/bin/env bash
# Packs the Debian packages that scripts/device/gpu-check.sh needs on the GPU
# machine (which has CUDA but fetches nothing) into .devdeps/deps.tar.xz:
# the files of the installed packages below (scripts/install-deps.sh installed
# them), without static libraries other than GoogleTest's, plus the links that
# Debian's alternatives make for OpenBLAS. About 8 MB.
set -euo pipefail
cd "$(dirname "$0")/../.."
packages=(libsqlite3-dev libsqlite3-0 libgtest-dev libgmock-dev liblapacke liblapacke-dev libopenblas0-pthread
          libopenblas-pthread-dev libopenblas-dev libopenblas0 libgfortran5 libcli11-dev pkgconf pkgconf-bin libpkgconf3)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for p in "${packages[@]}"; do
  dpkg -L "$p" >/dev/null 2>&1 || { echo "pack-deps.sh: package $p is not installed (scripts/install-deps.sh)" >&2; exit 1; }
  dpkg -L "$p" | while read -r f; do if [[ -f $f || -L $f ]]; then printf '%s\n' "$f"; fi; done
done | sort -u > "$stage/files"
mkdir "$stage/root"
tar -cf - -T "$stage/files" 2>/dev/null | tar -xf - -C "$stage/root"
find "$stage/root" -name '*.a' ! -name 'libgtest*' ! -name 'libgmock*' -delete
rm -rf "$stage/root/usr/share/doc" "$stage/root/usr/share/man"
blas=$stage/root/usr/lib/x86_64-linux-gnu
for l in libblas.so.3 liblapack.so.3 libblas.so liblapack.so; do ln -sf "openblas-pthread/$l" "$blas/$l"; done
mkdir -p "$blas/openblas-pthread/pkgconfig"
cp /usr/lib/x86_64-linux-gnu/openblas-pthread/pkgconfig/*.pc "$blas/openblas-pthread/pkgconfig/"
ln -sf ../openblas-pthread/pkgconfig/lapack-openblas.pc "$blas/pkgconfig/lapack.pc"
ln -sf ../openblas-pthread/pkgconfig/blas-openblas.pc "$blas/pkgconfig/blas.pc"
mkdir -p .devdeps
tar -C "$stage/root" -cJf .devdeps/deps.tar.xz .
echo "pack-deps.sh: .devdeps/deps.tar.xz ($(du -h .devdeps/deps.tar.xz | cut -f1)); carry .devdeps to the GPU machine"
