# what: append until memory runs out
# expect: contain
# status: memory|timeout
# reason: 
def attack(state, path=None, envvar=None):
    items = []
    while True:
        items.append('x' * 10000)
