"""Whole scripts in a fresh interpreter, as users run them: the first script of the docs,
and scripts that end with threads still inside the module (the process must exit cleanly)."""
import os
import subprocess
import sys

import pytest

SCRIPTS = os.path.join(os.path.dirname(__file__), "scripts")


def run(name, timeout=120):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, name)], capture_output=True, text=True,
                          timeout=timeout)


def test_first_script_of_the_docs():
    p = run("first_script.py")
    assert p.returncode == 0, p.stderr
    printed = [float(v) for v in p.stdout.replace("[", " ").replace("]", " ").split()]
    assert printed == [float(i) for i in range(16)]


@pytest.mark.parametrize("attempt", range(3))
def test_exit_with_a_callback_thread_in_process_report(attempt):
    p = run("exit_with_callback_thread.py")
    assert p.returncode == 0, p.stderr
    assert "callback 7" in p.stdout


@pytest.mark.parametrize("attempt", range(3))
def test_exit_with_busy_threads(attempt):
    p = run("exit_with_busy_threads.py")
    assert p.returncode == 0, p.stderr
