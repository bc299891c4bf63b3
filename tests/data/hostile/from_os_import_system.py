# what: from-import of os.system
# expect: refuse
# reason: import from 'os' is not allowed
from os import system


def attack(state, path=None, envvar=None):
    system('touch ' + path)
