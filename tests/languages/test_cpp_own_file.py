"""A C++ source calls its own definition of a function before another source's of the same name (issue 30)."""

from __future__ import annotations

from .test_cpp import _calls

CRASH_H = """namespace g3 {
namespace internal {
void writeErrorMessage(int m);
bool shouldBlock();
void log(int n);
void log(const char* s);
}
class Sub { public: bool Finish(); };
}
"""
UNIX = """#include "g3log/crashhandler.hpp"
namespace g3 {
namespace internal {
void writeErrorMessage(int m) {}
bool shouldBlock() { return true; }
void log(const char* s) {}
}
bool Sub::Finish() { return true; }
}
"""
WINDOWS = """#include "g3log/crashhandler.hpp"
namespace g3 {
namespace internal {
void writeErrorMessage(int m) {}
bool shouldBlock() { return false; }
void log(int n) {}
}
bool Sub::Finish() { return false; }
void handler(Sub& s) {
  internal::writeErrorMessage(1);
  g3::internal::shouldBlock();
  internal::log("x");
  s.Finish();
}
}
"""


def test_a_platform_source_calls_its_own_definition(tmp_path):
    """``crashhandler_windows.cpp`` and ``crashhandler_unix.cpp`` both define ``g3::internal::writeErrorMessage``:
    a call inside the Windows file reaches its own definition (the program that holds it has no other; clangd
    answers it); the old code bound the default build's ``_unix`` one. Must stay: another source's calls keep the
    default build's, and an overload the calling file does not define (``log(const char*)`` beside its own
    ``log(int)``) keeps the other file's."""
    calls = _calls(tmp_path, {"src/g3log/crashhandler.hpp": CRASH_H, "src/crashhandler_unix.cpp": UNIX,
                              "src/crashhandler_windows.cpp": WINDOWS,
                              "src/g3log.cpp": '#include "g3log/crashhandler.hpp"\nnamespace g3 {\n'
                                               'void run(Sub& s) { internal::writeErrorMessage(2); s.Finish(); }\n}\n'})
    win = "src.crashhandler_windows.g3"
    assert calls[(f"{win}.handler", 10)] == [f"{win}.internal.writeErrorMessage"]
    assert calls[(f"{win}.handler", 11)] == [f"{win}.internal.shouldBlock"]
    assert calls[(f"{win}.handler", 12)] == ["src.crashhandler_unix.g3.internal.log"]
    assert calls[(f"{win}.handler", 13)] == [f"{win}.Sub.Finish"]
    assert sorted(calls[("src.g3log.g3.run", 3)]) == ["src.crashhandler_unix.g3.Sub.Finish",
                                                      "src.crashhandler_unix.g3.internal.writeErrorMessage"]
