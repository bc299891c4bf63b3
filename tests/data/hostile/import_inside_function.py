# what: import hidden inside a function body
# expect: refuse
# reason: import of 'shutil' is not allowed
def attack(state, path=None, envvar=None):
    import shutil
    shutil.rmtree(path)
