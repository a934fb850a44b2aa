"""What the browser scripts share: `umctl` against the test's daemon and the one way to fail."""
import subprocess
import sys


def umctl_for(setup):
    """`umctl(*words)`: the test daemon's umctl run with `words`, its standard output."""
    def umctl(*words):
        return subprocess.run([setup["umctl"], *words, "--socket", setup["socket"]], check=True, capture_output=True, text=True).stdout
    return umctl


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)
