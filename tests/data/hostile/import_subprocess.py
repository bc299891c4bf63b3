# what: spawn a process
# expect: refuse
# reason: import of 'subprocess' is not allowed
import subprocess


def attack(state, path=None, envvar=None):
    subprocess.run(['touch', path])
