"""How long one line on an otherwise idle pipe takes to come back classified.

    python benches/first_result.py COMMAND...

Starts COMMAND with pipes, waits a second so that the model is loaded, writes one line and
measures the time until its result line arrives; repeats 20 times on the same process and prints
the median and the worst, in milliseconds.
"""
import statistics
import subprocess
import sys
import time


def main():
    child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    waits = []
    for _ in range(20):
        started = time.perf_counter()
        child.stdin.write(b"free entry to win a prize, text now to claim\n")
        child.stdin.flush()
        child.stdout.readline()
        waits.append((time.perf_counter() - started) * 1000)
        time.sleep(0.05)
    child.stdin.close()
    child.wait()
    print(f"first result: median {statistics.median(waits):.2f} ms, worst {max(waits):.2f} ms")


if __name__ == "__main__":
    main()
