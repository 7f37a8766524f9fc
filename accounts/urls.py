from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("signup/done/", views.signup_done, name="signup_done"),
    path("activate/<uidb64>/<token>/", views.signup_activate, name="signup_activate"),
    path("profile/", views.profile, name="profile"),
    path("profile/language/", views.language_time_zone_set, name="language_time_zone_set"),
    path("profile/auto-play/", views.auto_play_set, name="auto_play_set"),
    path("data/", views.account_data_page, name="account_data"),
    path("data/download/", views.account_data_download, name="account_data_download"),
    path("delete/", views.account_delete_view, name="account_delete"),
    path("tokens/", views.token_create, name="token_create"),
    path("tokens/<int:pk>/rename/", views.token_rename, name="token_rename"),
    path("tokens/<int:pk>/revoke/", views.token_revoke, name="token_revoke"),
    path("password/change/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("password/reset/complete/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
