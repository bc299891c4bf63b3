# what: attribute access hidden in a nested format spec
# expect: contain
# status: violation
# reason: format field {0.__init__} is not allowed
def attack(state, path=None, envvar=None):
    return '{1:{0.__init__}}'.format(state, 5)
