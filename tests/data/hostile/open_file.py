# what: write a file
# expect: refuse
# reason: 'open' is not available in the sandbox
def attack(state, path=None, envvar=None):
    open(path, 'w').write('pwned')
