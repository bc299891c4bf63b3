# what: while True: pass
# expect: contain
# status: timeout
# reason: CPU time limit
def attack(state, path=None, envvar=None):
    while True:
        pass
