# what: 10 ** 10 ** 10 computed at run time
# expect: contain
# status: memory|timeout
# reason: 
def attack(state, path=None, envvar=None):
    n = 10
    return n ** 10 ** 10 > 0
