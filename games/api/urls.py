from django.conf import settings
from django.urls import path
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from . import bot_accounts, events, lobby, me, notifications, players, tokens, vacation, views

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
    path("events/", events.EventListView.as_view(), name="api-events"),
    path("events/stream/", events.EventStreamView.as_view(), name="api-events-stream"),
    path("tables/<int:pk>/stream/", events.TableStreamView.as_view(), name="api-table-stream"),
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
    path("me/tokens/", tokens.TokenListView.as_view(), name="api-my-tokens"),
    path("me/tokens/<int:pk>/", tokens.TokenView.as_view(), name="api-my-token"),
    path("me/tokens/<int:pk>/revoke/", tokens.TokenRevokeView.as_view(), name="api-my-token-revoke"),
    path(
        "me/notification-preferences/",
        notifications.NotificationPreferencesView.as_view(),
        name="api-my-notification-preferences",
    ),
    path("notifications/", notifications.NotificationListView.as_view(), name="api-notifications"),
    path("notifications/read-all/", notifications.NotificationReadAllView.as_view(), name="api-notifications-read-all"),
    path("notifications/<int:pk>/read/", notifications.NotificationReadView.as_view(), name="api-notification-read"),
]

# Chat at every table (issue 17, point 1): games/api/chat.py.
from . import chat as chat_api  # noqa: E402

urlpatterns += [
    path("tables/<int:pk>/chat/", chat_api.ChatView.as_view(), name="api-table-chat"),
    path("tables/<int:pk>/chat/<int:message_id>/", chat_api.ChatMessageView.as_view(), name="api-table-chat-message"),
    path(
        "tables/<int:pk>/chat/<int:message_id>/report/", chat_api.ChatReportView.as_view(), name="api-table-chat-report"
    ),
    path("me/mutes/", chat_api.MutesView.as_view(), name="api-my-mutes"),
    path("me/mutes/<str:username>/", chat_api.MuteView.as_view(), name="api-my-mute"),
]
