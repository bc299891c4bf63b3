# what: reach open through __builtins__
# expect: refuse
# reason: "__builtins__" is an invalid variable name
def attack(state, path=None, envvar=None):
    __builtins__['open'](path, 'w').write('x')
