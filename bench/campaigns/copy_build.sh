# Sourced by the campaign scripts (run from the repository root): a private
# copy of the release build's tool, bin/ and libexec/ (bin/autosched finds
# its helpers in ../libexec/autosched), so that rebuilding during a campaign
# of hours changes nothing it runs. Sets $bin to the copy's bin/; the copy is
# removed at exit.
copy_release_build() {
  local name=$1
  [[ -x build/release/bin/autosched ]] || {
    echo "$name: build/release/bin/autosched missing; run ./scripts/setup.sh first" >&2
    exit 1
  }
  copy=$(mktemp -d)
  trap 'rm -rf "$copy"' EXIT
  cp -r build/release/bin "$copy/bin"
  cp -r build/release/libexec "$copy/libexec"
  bin=$copy/bin
}
