# what: importlib to reach os
# expect: refuse
# reason: import of 'importlib' is not allowed
import importlib


def attack(state, path=None, envvar=None):
    importlib.import_module('os').system('touch ' + path)
