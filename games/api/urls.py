from django.conf import settings
from django.urls import path
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from . import account, bot_accounts, lobby, me, players, tokens, vacation, views
from . import blocks as blocks_api

# The documentation pages' own Content-Security-Policy: still scripts from this site only (the split
# Swagger view loads its setup as a file, not an inline script), but Swagger UI and Redoc style their
# pages inline, draw icons from data: URLs, and Redoc runs a worker from a blob.
DOCS_CSP = {
    **settings.SECURE_CSP,
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "worker-src": [CSP.SELF, "blob:"],
}

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", csp_override(DOCS_CSP)(SpectacularSwaggerSplitView.as_view(url_name="api-schema")), name="api-docs"),
    path("redoc/", csp_override(DOCS_CSP)(SpectacularRedocView.as_view(url_name="api-schema")), name="api-redoc"),
    path("catalogue/", views.CatalogueView.as_view(), name="api-catalogue"),
    path("me/vacation/", vacation.VacationView.as_view(), name="api-my-vacation"),
    path("me/bot/", bot_accounts.MakeBotView.as_view(), name="api-my-bot"),
    path("invitations/", bot_accounts.InvitationListView.as_view(), name="api-invitations"),
    path("invitations/<int:pk>/accept/", bot_accounts.InvitationAcceptView.as_view(), name="api-invitation-accept"),
    path("invitations/<int:pk>/decline/", bot_accounts.InvitationDeclineView.as_view(), name="api-invitation-decline"),
    path("tables/", views.TableListView.as_view(), name="api-tables"),
    path("tables/mine/", views.MyTablesView.as_view(), name="api-my-tables"),
    path("tables/watch/", lobby.WatchListView.as_view(), name="api-tables-watch"),
    path("challenges/", lobby.ChallengeView.as_view(), name="api-challenges"),
    path("tables/<int:pk>/", views.TableDetailView.as_view(), name="api-table"),
    path("tables/<int:pk>/export/", views.ExportView.as_view(), name="api-export"),
    path("tables/<int:pk>/legal-actions/", views.LegalActionsView.as_view(), name="api-legal-actions"),
    path("tables/<int:pk>/positions/<int:ply>/", views.PositionView.as_view(), name="api-position"),
    path("tables/<int:pk>/actions/", views.ActionsView.as_view(), name="api-actions"),
    path("tables/<int:pk>/join/", views.JoinView.as_view(), name="api-join"),
    path("tables/<int:pk>/leave/", views.LeaveView.as_view(), name="api-leave"),
    path("tables/<int:pk>/bots/", views.AddBotView.as_view(), name="api-add-bot"),
    path("tables/<int:pk>/invite/", views.InviteView.as_view(), name="api-invite"),
    path("tables/<int:pk>/start/", views.StartView.as_view(), name="api-start"),
    path("tables/<int:pk>/abort/", views.AbortView.as_view(), name="api-abort"),
    path("tables/<int:pk>/abort-agreement/", views.AbortAgreementView.as_view(), name="api-abort-agreement"),
    path("tables/<int:pk>/resign/", views.ResignView.as_view(), name="api-resign"),
    path("tables/<int:pk>/rematch/", views.RematchView.as_view(), name="api-rematch"),
    path("players/<str:username>/", players.PlayerView.as_view(), name="api-player"),
    path("players/<str:username>/games/", players.PlayerGamesView.as_view(), name="api-player-games"),
    path("me/", me.MeView.as_view(), name="api-me"),
    path("me/turns/", account.TurnsView.as_view(), name="api-my-turns"),
    path("me/data/", account.MyDataView.as_view(), name="api-my-data"),
    path("me/delete/", account.AccountDeleteView.as_view(), name="api-my-account-delete"),
    path("me/tokens/", tokens.TokenListView.as_view(), name="api-my-tokens"),
    path("me/tokens/<int:pk>/", tokens.TokenView.as_view(), name="api-my-token"),
    path("me/tokens/<int:pk>/revoke/", tokens.TokenRevokeView.as_view(), name="api-my-token-revoke"),
]

# Blocking (ruling S7): games/api/blocks.py, shaped as the mutes.
urlpatterns += [
    path("me/blocks/", blocks_api.BlocksView.as_view(), name="api-my-blocks"),
    path("me/blocks/<str:username>/", blocks_api.BlockView.as_view(), name="api-my-block"),
]
