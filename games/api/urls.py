from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from . import views

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("catalogue/", views.CatalogueView.as_view(), name="api-catalogue"),
    path("tables/", views.TableListView.as_view(), name="api-tables"),
    path("tables/mine/", views.MyTablesView.as_view(), name="api-my-tables"),
    path("tables/<int:pk>/", views.TableDetailView.as_view(), name="api-table"),
    path("tables/<int:pk>/legal-actions/", views.LegalActionsView.as_view(), name="api-legal-actions"),
    path("tables/<int:pk>/actions/", views.ActionsView.as_view(), name="api-actions"),
    path("tables/<int:pk>/join/", views.JoinView.as_view(), name="api-join"),
    path("tables/<int:pk>/leave/", views.LeaveView.as_view(), name="api-leave"),
    path("tables/<int:pk>/bots/", views.AddBotView.as_view(), name="api-add-bot"),
    path("tables/<int:pk>/invite/", views.InviteView.as_view(), name="api-invite"),
    path("tables/<int:pk>/start/", views.StartView.as_view(), name="api-start"),
    path("tables/<int:pk>/abort/", views.AbortView.as_view(), name="api-abort"),
    path("tables/<int:pk>/resign/", views.ResignView.as_view(), name="api-resign"),
]
