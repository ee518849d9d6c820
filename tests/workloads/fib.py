# fib.py [N]: CPU-bound Python (naive Fibonacci of N, default 27), for
# DWARF unwinding through /usr/bin/python3 (tests/e2e/t7603-dwarf-python.sh)
import sys


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


fib(int(sys.argv[1]) if len(sys.argv) > 1 else 27)
