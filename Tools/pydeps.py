"""The one way the checks and benchmarks install the Python packages they need.

CI runs on machines that may be new, so a script that cannot import a package installs it with
pip for the interpreter running it. Where that interpreter is externally managed (PEP 668, e.g.
Debian's python3), the packages go to the user's site-packages instead; where it has no pip,
Debian's python3-pip is installed first.
"""

import importlib
import os
import shutil
import site
import subprocess
import sys


def install(*packages):
    """Installs `packages` with pip so that this process can import them next."""
    print("installing %s with pip" % ", ".join(packages), file=sys.stderr)
    pip = [sys.executable, "-m", "pip"]
    if subprocess.run(pip + ["--version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
        if shutil.which("apt-get") is None:
            sys.exit("%s has no pip and there is no apt-get to install it" % sys.executable)
        subprocess.run(["apt-get", "update", "-qq"], check=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "python3-pip"], check=True)
    command = pip + ["install", "--quiet"] + list(packages)
    if subprocess.run(command).returncode != 0:
        subprocess.run(command + ["--user", "--break-system-packages"], check=True)
        user = site.getusersitepackages()
        if os.path.isdir(user):
            site.addsitedir(user)
    importlib.invalidate_caches()
