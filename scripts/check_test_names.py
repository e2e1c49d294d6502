#!/usr/bin/env python3
"""Every Catch2 test case must be a ctest test that runs it. catch_discover_tests registers one ctest test per test
case name, but a name holding a ';' (CMake's list separator) is split into several ctest tests, each of which matches
no test case: Catch then prints "No test cases matched" and exits 0, so the test case never runs and never fails
(15 test cases were in that state until 2026-11-26). This check compares the test cases pfsim_tests lists with the
ctest tests of the build, minus the script tests that CMakeLists.txt adds by name.

usage: check_test_names.py BUILD_DIR CMAKELISTS
Exit status 0 when both sets agree; 1 naming each test case that no ctest test runs and each ctest test that is no
test case; 2 on a usage error.
"""
import os
import re
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    build, cmakelists = sys.argv[1], sys.argv[2]
    # Catch2 v2 exits with the number of test cases listed: not an error.
    names = subprocess.run([os.path.join(build, "pfsim_tests"), "--list-test-names-only"], capture_output=True,
                           text=True).stdout.splitlines()
    cases = {n for n in names if n.strip()}
    listed = subprocess.run(["ctest", "-N"], cwd=build, capture_output=True, text=True, check=True).stdout
    tests = set(re.findall(r"^\s*Test\s+#\d+: (.*)$", listed, re.M))
    scripts = set(re.findall(r"add_test\(NAME (\S+)", open(cmakelists).read()))
    tests -= scripts
    not_run = sorted(cases - tests)
    strays = sorted(tests - cases)
    for n in not_run:
        print(f"FAIL test case not run by any ctest test (a ';' in its name?): {n}")
    for n in strays:
        print(f"FAIL ctest test that is no test case (it runs nothing): '{n}'")
    if not_run or strays:
        return 1
    print(f"ok   {len(cases)} test cases, each a ctest test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
