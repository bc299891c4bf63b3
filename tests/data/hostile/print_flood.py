# what: print forever
# expect: contain
# status: timeout
# reason: CPU time limit
def attack(state, path=None, envvar=None):
    while True:
        print('x' * 1000)
