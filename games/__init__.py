"""The games: each game type plugs its rules into ``games.registry``."""
