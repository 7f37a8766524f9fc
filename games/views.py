from django.shortcuts import render

from . import selectors


def home(request):
    mine = selectors.games_of_user_sorted(user=request.user) if request.user.is_authenticated else []
    return render(request, "games/home.html", {"open_tables": selectors.tables_open()[:50], "my_games": mine})
