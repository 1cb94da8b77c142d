#!/usr/bin/env bash
# A stand-in for fitz used by selftest.py: `check` accepts everything, `build` answers like an
# internal compiler error for programs that hold the word "omega" (a batch's main.fitz: when one
# of the modules beside it does) and succeeds for the others.
case "$1" in
  check) exit 0 ;;
  build)
    file=${!#}
    files=$file
    [[ $(basename "$file") == main.fitz ]] && files=$(dirname "$file")/*.fitz
    # shellcheck disable=SC2086
    if grep -q omega $files 2>/dev/null; then
      echo "internal compiler error: the generated C++ did not compile; this is a bug in fitz."
      echo "$file:3:1:   required from here"
      echo "x.cpp:9:9: error: stub failure"
      exit 3
    fi
    exit 0 ;;
esac
exit 2
