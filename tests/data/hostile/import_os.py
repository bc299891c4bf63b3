# what: shell command through os.system
# expect: refuse
# reason: import of 'os' is not allowed
import os


def attack(state, path=None, envvar=None):
    os.system('touch ' + path)
