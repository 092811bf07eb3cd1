#!/bin/sh
# Fake detector for tests/tools/test_eval.cpp: answers the first space-separated word of each line.
exec cut -d' ' -f1
