import { Passport, type PassportStatic } from 'passport';
import { type IVerifyOptions, Strategy as LocalStrategy } from 'passport-local';
import type { AuthService } from './auth.service';
import type { UserDirectory } from './user-directory.service';

/**
 * A passport of this application's own with the local strategy; a session holds only the user id, resolved through
 * the cache. Its own, not passport's shared default: two applications in one process (two replicas in a test) would
 * otherwise check every sign-in with whichever registered its strategy last.
 */
export function configurePassport(auth: AuthService, directory: UserDirectory): PassportStatic {
  const passport = new Passport() as PassportStatic;
  passport.use(
    new LocalStrategy({ usernameField: 'email', passwordField: 'password' }, (email, password, done) => {
      auth.checkCredentials(email, password).then(
        // passport hands `info` on as it is: the account a failure named travels beside its message
        (result) =>
          result.ok
            ? done(null, result.user)
            : done(null, false, { message: result.message, accountId: result.accountId } as IVerifyOptions),
        done,
      );
    }),
  );
  passport.serializeUser<string>((user, done) => done(null, (user as { id: string }).id));
  passport.deserializeUser<string>((id, done) => {
    directory.get(id).then((user) => done(null, user?.isActive ? user : false), done);
  });
  return passport;
}
