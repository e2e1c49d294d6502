# CMake generated Testfile for 
# Source directory: /work/main
# Build directory: /work/main/build-tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/main/build-tests/pfsim_tests_include-b12d07c.cmake")
