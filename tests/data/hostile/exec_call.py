# what: exec a string
# expect: refuse
# reason: Exec calls are not allowed
def attack(state, path=None, envvar=None):
    exec("open(path, 'w')")
