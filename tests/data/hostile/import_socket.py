# what: open a network connection
# expect: refuse
# reason: import of 'socket' is not allowed
import socket


def attack(state, path=None, envvar=None):
    socket.create_connection(('example.com', 80))
