#!/usr/bin/env bash
# A stand-in for fitz used by selftest.py: `check` accepts everything, `build` answers like an
# internal compiler error for programs that hold the word "omega" and succeeds for the others.
case "$1" in
  check) exit 0 ;;
  build)
    file=${!#}
    if [[ -f $file ]] && grep -q omega "$file"; then
      echo "internal compiler error: the generated C++ did not compile; this is a bug in fitz."
      echo "$file:3:1:   required from here"
      echo "x.cpp:9:9: error: stub failure"
      exit 3
    fi
    exit 0 ;;
esac
exit 2
